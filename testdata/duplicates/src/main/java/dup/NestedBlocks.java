package dup;

/** A block that serves no purpose. */
public final class NestedBlocks {
    private NestedBlocks() {
    }

    /**
     * Appends a greeting.
     *
     * @param builder where to write
     */
    public static void greet(final StringBuilder builder) {
        {
            builder.append("hello");
        }
    }
}
