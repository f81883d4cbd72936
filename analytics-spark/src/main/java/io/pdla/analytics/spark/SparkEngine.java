package io.pdla.analytics.spark;

import io.pdla.analytics.DuckDbEngine;
import io.pdla.analytics.QueryEngine;
import io.pdla.analytics.QueryException;
import io.pdla.analytics.QueryResult;
import io.pdla.analytics.Schema;
import io.pdla.analytics.Tables;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The tables on Apache Spark: temporary views job/file/rank/segment over the same Parquet globs DuckDB reads
 * (schemas merged), an empty view of the schema for a table without files, and the same SQL (ANSI mode with
 * double-quoted identifiers, as DuckDB reads them).
 */
public final class SparkEngine implements QueryEngine {
    private final SparkSession spark;

    public SparkEngine(Tables tables, String master) {
        if (System.getProperty("log4j2.configurationFile") == null) {
            // Spark logs its start-up at INFO on stderr; a query's output should not drown in it
            org.apache.logging.log4j.core.config.Configurator.setRootLevel(org.apache.logging.log4j.Level.ERROR);
        }
        try {
            spark = SparkSession.builder().master(master).appName("pdla query")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.ansi.enabled", "true")
                    .config("spark.sql.ansi.doubleQuotedIdentifiers", "true")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.sql.session.timeZone", "UTC")
                    .getOrCreate();
            if (System.getProperty("log4j2.configurationFile") == null) spark.sparkContext().setLogLevel("ERROR");
        } catch (RuntimeException e) {
            throw new QueryException("cannot start Spark at master " + master + ": " + e.getMessage(), e);
        }
        for (Schema.Table t : Schema.tables()) {
            Dataset<Row> df = tables.hasData(t.name())
                    ? spark.read().option("mergeSchema", "true").parquet(tables.glob(t.name()))
                    : spark.createDataFrame(List.of(), structOf(t));
            df.createOrReplaceTempView(t.name());
        }
    }

    static StructType structOf(Schema.Table t) {
        List<StructField> fields = new ArrayList<>();
        for (Schema.Column c : t.columns()) fields.add(DataTypes.createStructField(c.name(), type(c.type()), true));
        return DataTypes.createStructType(fields);
    }

    private static DataType type(String sql) {
        return switch (sql) {
            case "BIGINT" -> DataTypes.LongType;
            case "DOUBLE" -> DataTypes.DoubleType;
            case "BOOLEAN" -> DataTypes.BooleanType;
            default -> DataTypes.StringType;
        };
    }

    @Override
    public String name() { return "spark"; }

    @Override
    public QueryResult run(String sql) {
        try {
            Dataset<Row> df = spark.sql(sql);
            List<String> cols = List.of(df.columns());
            List<List<Object>> rows = new ArrayList<>();
            for (Row r : df.collectAsList()) {
                List<Object> v = new ArrayList<>(r.size());
                for (int i = 0; i < r.size(); i++) v.add(DuckDbEngine.normalize(r.get(i)));
                rows.add(v);
            }
            return new QueryResult(cols, rows);
        } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes, thrown without a throws clause
            String m = e.getMessage() == null ? e.toString() : e.getMessage();
            int nl = m.indexOf('\n');
            throw new QueryException("query failed on Spark: " + (nl < 0 ? m : m.substring(0, nl)), e);
        }
    }

    @Override
    public void close() { spark.stop(); }
}
