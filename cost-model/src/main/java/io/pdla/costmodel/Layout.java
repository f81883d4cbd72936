package io.pdla.costmodel;

/**
 * The three data layouts of PDLA [V, S1 sec 3.4.1; S2 sec III-A].
 * <ul>
 * <li>{@link #ONE_DH}: each process's data striped over all servers (PVFS2/OrangeFS default);</li>
 * <li>{@link #ONE_DV}: each process's data on one server;</li>
 * <li>{@link #TWO_D}: each process's data on one of {@code g} storage groups of {@code n/g} servers.</li>
 * </ul>
 */
public enum Layout {
    ONE_DH("1-DH"), ONE_DV("1-DV"), TWO_D("2-D");

    private final String label;

    Layout(String label) {
        this.label = label;
    }

    /** The name used in the papers and in the CLI output ({@code 1-DH}, {@code 1-DV}, {@code 2-D}). */
    public String label() {
        return label;
    }

    public static Layout parse(String text) {
        for (Layout l : values()) {
            if (l.label.equalsIgnoreCase(text) || l.name().equalsIgnoreCase(text)) {
                return l;
            }
        }
        throw new IllegalArgumentException("layout must be 1-DH, 1-DV or 2-D, was " + text);
    }
}
