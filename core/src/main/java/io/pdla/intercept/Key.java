package io.pdla.intercept;

/** A typed key into a {@link FileContext}'s per-file store; compare by identity. */
public final class Key<T> {
    private final String name;

    private Key(String name) {
        this.name = name;
    }

    public static <T> Key<T> of(String name) {
        return new Key<>(name);
    }

    @Override
    public String toString() {
        return "Key(" + name + ")";
    }
}
