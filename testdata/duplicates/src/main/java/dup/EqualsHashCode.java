package dup;

/** A class that defines equals() and not hashCode(), and one the reverse. */
public final class EqualsHashCode {
    private final String name;

    /**
     * A named thing.
     *
     * @param name its name
     */
    public EqualsHashCode(final String name) {
        this.name = name;
    }

    @Override public boolean equals(final Object other) { return other instanceof EqualsHashCode && name.equals(((EqualsHashCode) other).name); }
}

/** A class that defines hashCode() and not equals(). */
final class HashCodeOnly {
    private final int id;

    HashCodeOnly(final int id) {
        this.id = id;
    }

    @Override public int hashCode() { return id; }
}
