/* IOR's strided read shape from N processes in C: rank r reads transfer bytes at (s * N + r) * transfer for
 * s = 0 .. segments-1, from a file in the page cache, with pread into one buffer. The ceiling a Java path can
 * aim at on this machine. Each process makes DIR/ready.RANK, waits for DIR/go, reads, and prints "start_ns end_ns bytes" (CLOCK_REALTIME).
 * Usage: strided FILE DIR RANK RANKS TRANSFER SEGMENTS
 *        strided FILE DIR 0 RANKS TRANSFER SEGMENTS write   (writes the whole file as the ranks' IOR write phase
 *        would, one TRANSFER-sized pwrite per piece: the page cache keeps folios of the writes' size on kernels with
 *        large folios, and reads of the file are faster or slower with them, so the file is made the way IOR makes it) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static long long now(void) { struct timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
int main(int argc, char **argv) {
  if (argc != 7 && argc != 8) { fprintf(stderr, "usage: strided FILE DIR RANK RANKS TRANSFER SEGMENTS [write]\n"); return 2; }
  int rank = atoi(argv[3]), ranks = atoi(argv[4]); long t = atol(argv[5]), segs = atol(argv[6]);
  if (argc == 8) {
    int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644); if (out < 0) { perror(argv[1]); return 1; }
    char *piece = malloc(t); for (long i = 0; i < t; i++) piece[i] = (char) (i * 31 + 7);
    for (long i = 0; i < segs * ranks; i++) if (pwrite(out, piece, t, i * t) != t) { perror("pwrite"); return 1; }
    return close(out) == 0 ? 0 : 1;
  }
  char go[4096]; snprintf(go, sizeof go, "%s/go", argv[2]);
  int fd = open(argv[1], O_RDONLY); if (fd < 0) { perror(argv[1]); return 1; }
  char *buf = malloc(t);
  char ready[4096]; snprintf(ready, sizeof ready, "%s/ready.%d", argv[2], rank); close(open(ready, O_CREAT | O_WRONLY, 0644));
  while (access(go, F_OK) != 0) usleep(50);
  long long s = now(); long long bytes = 0;
  for (long i = 0; i < segs; i++) { ssize_t r = pread(fd, buf, t, (i * ranks + rank) * t); if (r < 0) { perror("pread"); return 1; } bytes += r; }
  long long e = now();
  printf("%lld %lld %lld\n", s, e, bytes);
  return 0;
}
