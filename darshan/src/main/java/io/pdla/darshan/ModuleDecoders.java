package io.pdla.darshan;

import java.util.List;

/** Decoders of the variable-length records: LUSTRE, HEATMAP and DXT. */
final class ModuleDecoders {
    private ModuleDecoders() {}

    static LustreRecord lustre(RecordCursor c, int ver) throws DarshanFormatException {
        if (ver == 1) {
            c.need(56, "LUSTRE v1 record");
            long id = c.getLong(), rank = c.getLong();
            c.skip(24); // OSTS, MDTS, STRIPE_OFFSET: not carried into the v2 form
            long size = c.getLong(), count = c.getLong();
            c.needItems(count, 8, "LUSTRE OST list of " + count + " stripes");
            long[] osts = new long[(int) count];
            for (int i = 0; i < count; i++) osts[i] = c.getLong();
            long[] comp = {size, count, -1, -1, 0, -1, -1};
            return new LustreRecord(id, rank, new long[][] {comp}, new String[] {""}, osts);
        }
        c.need(32, "LUSTRE record");
        long id = c.getLong(), rank = c.getLong(), nComps = c.getLong(), nStripes = c.getLong();
        if (nComps < 0 || nStripes < 0) throw c.error("negative LUSTRE component or stripe count");
        c.needItems(nComps, 72, "LUSTRE record with " + nComps + " components");
        c.needItems(nStripes, 8, "LUSTRE record with " + nStripes + " stripes");
        c.need(nComps * 72 + nStripes * 8, "LUSTRE record with " + nComps + " components and " + nStripes + " stripes");
        long[][] comps = new long[(int) nComps][];
        String[] pools = new String[(int) nComps];
        for (int i = 0; i < nComps; i++) {
            comps[i] = new long[7];
            for (int j = 0; j < 7; j++) comps[i][j] = c.getLong();
            pools[i] = c.fixedString(16);
        }
        long[] allOsts = new long[(int) nStripes];
        for (int i = 0; i < nStripes; i++) allOsts[i] = c.getLong();
        // unused pre-allocated components have STRIPE_SIZE -1; darshan-util truncates there
        int used = comps.length;
        long stripes = 0;
        for (int i = 0; i < comps.length; i++) {
            if (comps[i][LustreRecord.STRIPE_SIZE] == -1) { used = i; break; }
            // a damaged count can be negative or huge: the sum stays within the OSTs actually stored
            long count = Math.min(allOsts.length, Math.max(0, comps[i][LustreRecord.STRIPE_COUNT]));
            stripes = Math.min(allOsts.length, stripes + count);
        }
        long[][] keptComps = java.util.Arrays.copyOf(comps, used);
        String[] keptPools = java.util.Arrays.copyOf(pools, used);
        long[] osts = java.util.Arrays.copyOf(allOsts, (int) stripes);
        return new LustreRecord(id, rank, keptComps, keptPools, osts);
    }

    /** HEATMAP records, with darshan-util's off-by-one bin correction relative to the first record. */
    static void heatmaps(RecordCursor c, List<Object> out) throws DarshanFormatException {
        long firstBins = 0;
        double firstWidth = 0;
        while (c.remaining() > 0) {
            c.need(48, "HEATMAP record");
            long id = c.getLong(), rank = c.getLong();
            double width = c.getDouble();
            long nbins = c.getLong();
            c.skip(16); // two pointer slots written with the struct
            if (nbins < 0) throw c.error("negative HEATMAP bin count " + nbins);
            c.needItems(nbins, 16, "HEATMAP bins (" + nbins + ")");
            long[] w = new long[(int) nbins], r = new long[(int) nbins];
            for (int i = 0; i < nbins; i++) w[i] = c.getLong();
            for (int i = 0; i < nbins; i++) r[i] = c.getLong();
            if (firstBins == 0) firstBins = nbins;
            if (firstWidth == 0) firstWidth = width;
            if (width == firstWidth && nbins == firstBins + 1) {
                w = java.util.Arrays.copyOf(w, (int) nbins - 1);
                r = java.util.Arrays.copyOf(r, (int) nbins - 1);
            } else if (width == firstWidth && nbins == firstBins - 1) {
                w = java.util.Arrays.copyOf(w, (int) nbins + 1);
                r = java.util.Arrays.copyOf(r, (int) nbins + 1);
            }
            out.add(new HeatmapRecord(id, rank, width, w, r));
        }
    }

    /**
     * One DXT record. DXT_MPIIO version 1 did not record offsets: they read as -1, as darshan-util makes them
     * ({@code offsetsValid} false), so that nobody takes what those bytes hold for the application's offsets.
     */
    static DxtRecord dxt(RecordCursor c, int segWords, boolean offsetsValid) throws DarshanFormatException {
        c.need(104, "DXT record");
        long id = c.getLong(), rank = c.getLong();
        c.getLong(); // shared_record
        String host = c.fixedString(64);
        long wc = c.getLong(), rc = c.getLong();
        if (wc < 0 || rc < 0) throw c.error("negative DXT segment count");
        long n = wc + rc;
        c.needItems(wc, (long) segWords * 8, "DXT trace of " + wc + " write segments");
        c.needItems(rc, (long) segWords * 8, "DXT trace of " + rc + " read segments");
        c.needItems(n, (long) segWords * 8, "DXT trace of " + wc + " write and " + rc + " read segments");
        int k = (int) n;
        long[] off = new long[k], len = new long[k], tid = new long[k];
        double[] st = new double[k], en = new double[k];
        for (int i = 0; i < k; i++) {
            off[i] = c.getLong();
            if (!offsetsValid) off[i] = -1;
            len[i] = c.getLong();
            st[i] = c.getDouble();
            en[i] = c.getDouble();
            if (segWords == 5) tid[i] = c.getLong();
        }
        return new DxtRecord(id, rank, host, (int) wc, (int) rc, off, len, st, en, tid);
    }
}
