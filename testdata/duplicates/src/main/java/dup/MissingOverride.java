package dup;

/** A method that overrides without saying so. */
public final class MissingOverride {
    private final String name;

    /**
     * A named thing.
     *
     * @param name its name
     */
    public MissingOverride(final String name) {
        this.name = name;
    }

    /** {@inheritDoc} */
    public String toString() {
        return name;
    }
}
