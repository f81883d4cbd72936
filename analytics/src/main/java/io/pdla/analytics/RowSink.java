package io.pdla.analytics;

/** Where {@link LogRows} puts a log's rows: one call per row, values in the table's column order. */
interface RowSink {
    void row(Schema.Table table, Object[] values) throws Exception;
}
