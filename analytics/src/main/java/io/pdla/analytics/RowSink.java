package io.pdla.analytics;

/** Where {@link LogRows} puts a log's rows: one call per row, values in the table's column order. */
interface RowSink {
    void row(Schema.Table table, Object[] values) throws Exception;

    /** One DXT segment (the segment table's columns); a sink may append it without boxing. */
    default void segment(long jobKey, long fileId, long rank, String module, String op, long offset, long length,
                         double start, double end) throws Exception {
        row(Schema.SEGMENT, new Object[] {jobKey, fileId, rank, module, op, offset, length, start, end});
    }
}
