package io.pdla.patterns.rootcause;

/** Index sorts and a heap over primitive keys: the sweep line handles 10^6 files without boxing. */
final class PrimitiveSort {
    private PrimitiveSort() {
    }

    /**
     * Indices 0..n-1 ordered by ascending key, stable (bottom-up merge sort). Keys travel with their indices so
     * that comparisons read memory in order instead of jumping through the key array.
     */
    static int[] order(double[] key) {
        int n = key.length;
        int[] a = new int[n], b = new int[n];
        double[] ka = key.clone(), kb = new double[n];
        for (int i = 0; i < n; i++) a[i] = i;
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
                int i = lo, j = mid, k = lo;
                while (i < mid && j < hi) {
                    if (ka[j] < ka[i]) {
                        kb[k] = ka[j];
                        b[k++] = a[j++];
                    } else {
                        kb[k] = ka[i];
                        b[k++] = a[i++];
                    }
                }
                while (i < mid) {
                    kb[k] = ka[i];
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    kb[k] = ka[j];
                    b[k++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
            double[] kt = ka;
            ka = kb;
            kb = kt;
        }
        return a;
    }

    /** A max-heap of indices by {@code key[index]}. */
    static final class MaxHeap {
        private final double[] key;
        private int[] heap;
        private int size;

        MaxHeap(double[] key) {
            this.key = key;
            this.heap = new int[Math.max(4, Math.min(key.length, 1024))];
        }

        boolean isEmpty() {
            return size == 0;
        }

        int peek() {
            return heap[0];
        }

        void add(int v) {
            if (size == heap.length) heap = java.util.Arrays.copyOf(heap, size * 2);
            int i = size++;
            while (i > 0) {
                int p = (i - 1) >>> 1;
                if (key[heap[p]] >= key[v]) break;
                heap[i] = heap[p];
                i = p;
            }
            heap[i] = v;
        }

        int poll() {
            int top = heap[0];
            int v = heap[--size];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= size) break;
                if (c + 1 < size && key[heap[c + 1]] > key[heap[c]]) c++;
                if (key[heap[c]] <= key[v]) break;
                heap[i] = heap[c];
                i = c;
            }
            if (size > 0) heap[i] = v;
            return top;
        }
    }
}
