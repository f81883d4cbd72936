package io.pdla.catalog;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index of replicated originals is read again only when its file changed: redirect asks it twice at every open of
 * every rank. An original added between two looks is seen at the second (online PDLA's replica published between two
 * opens of one job), and nothing the file no longer says is answered from memory.
 */
class ReplicatedOriginalsStampTest {
    @TempDir
    Path tmp;

    @Test
    void anUnchangedIndexIsNotReadAgain() throws Exception {
        Path catalog = Files.createDirectories(tmp.resolve("catalog"));
        ReplicatedOriginals.createIfAbsent(catalog);
        URI a = tmp.resolve("a.dat").toUri();
        ReplicatedOriginals.add(catalog, a);
        assertTrue(ReplicatedOriginals.mayHave(catalog, a));
        long reads = ReplicatedOriginals.indexReads();
        for (int i = 0; i < 10; i++) {
            assertTrue(ReplicatedOriginals.mayHave(catalog, a));
            assertFalse(ReplicatedOriginals.mayHave(catalog, tmp.resolve("b.dat").toUri()));
        }
        assertEquals(reads, ReplicatedOriginals.indexReads(), "twenty looks at an unchanged index, no read of it");
    }

    @Test
    void anOriginalAddedBetweenTwoLooksIsSeenAtTheSecond() throws Exception {
        Path catalog = Files.createDirectories(tmp.resolve("catalog"));
        ReplicatedOriginals.createIfAbsent(catalog);
        URI a = tmp.resolve("a.dat").toUri(), b = tmp.resolve("b.dat").toUri();
        for (URI u : new URI[]{a, b}) {
            assertFalse(ReplicatedOriginals.mayHave(catalog, u), "not indexed yet: " + u);
            ReplicatedOriginals.add(catalog, u);   // at once, within the file system's time stamp resolution
            assertTrue(ReplicatedOriginals.mayHave(catalog, u), "indexed since the last look: " + u);
        }
        assertTrue(ReplicatedOriginals.mayHave(catalog, a), "and the first still");
    }

    @Test
    void anIndexReplacedOutsideByOneWithoutTheOriginalIsReadAgain() throws Exception {
        Path catalog = Files.createDirectories(tmp.resolve("catalog"));
        URI a = tmp.resolve("a.dat").toUri();
        ReplicatedOriginals.add(catalog, a);
        assertTrue(ReplicatedOriginals.mayHave(catalog, a));
        // not what pdla does (the index only grows), but a remembered answer must never outlive the file's content
        Path other = tmp.resolve("other.idx");
        Files.writeString(other, tmp.resolve("z.dat").toUri() + "\n");
        Files.move(other, catalog.resolve(ReplicatedOriginals.FILE), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertFalse(ReplicatedOriginals.mayHave(catalog, a), "the replaced index no longer names it");
    }

    @Test
    void aCatalogWhoseIndexWentAwayAnswersAsBefore() throws Exception {
        Path catalog = Files.createDirectories(tmp.resolve("catalog"));
        URI a = tmp.resolve("a.dat").toUri();
        ReplicatedOriginals.add(catalog, a);
        assertTrue(ReplicatedOriginals.mayHave(catalog, a));
        Files.delete(catalog.resolve(ReplicatedOriginals.FILE));
        assertFalse(ReplicatedOriginals.mayHave(catalog, a), "no index and no environment: no catalog content, no replica");
        Files.createFile(catalog.resolve("00000000.jdb"));
        assertTrue(ReplicatedOriginals.mayHave(catalog, tmp.resolve("c.dat").toUri()), "a catalog made before the index: may have");
        try (var left = Files.list(catalog)) {
            for (Path p : left.toList()) Files.delete(p);   // the environment's file and the index's lock file
        }
        Files.delete(catalog);
        assertFalse(ReplicatedOriginals.mayHave(catalog, a), "no catalog directory, no replicas");
    }
}
