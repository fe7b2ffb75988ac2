package dup;

/** equals(null), which is always false. */
public final class EqualsNull {
    private EqualsNull() {
    }

    /**
     * Whether a value is missing.
     *
     * @param value a value
     * @return true when it is
     */
    public static boolean missing(final Object value) {
        return value.equals(null);
    }
}
