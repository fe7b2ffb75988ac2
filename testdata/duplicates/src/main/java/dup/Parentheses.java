package dup;

/** Parentheses that are not needed. */
public final class Parentheses {
    private Parentheses() {
    }

    /**
     * The double of a value.
     *
     * @param value a value
     * @return its double
     */
    public static int twice(final int value) {
        return (value + value);
    }
}
