package dup;

/** Array fields returned to callers and stored from them. */
public final class InternalArray {
    private static int[] defaults = {1};

    private final int[] values;

    /**
     * Holds values.
     *
     * @param values the values, kept as they are
     */
    public InternalArray(final int[] values) {
        this.values = values;
    }

    /**
     * The values.
     *
     * @return the values held
     */
    public int[] values() {
        return values;
    }

    /**
     * The default values.
     *
     * @return the values
     */
    public static int[] defaults() {
        return defaults;
    }

    /**
     * Sets the default values.
     *
     * @param values the values, kept as they are
     */
    public static void setDefaults(final int[] values) {
        defaults = values;
    }
}
