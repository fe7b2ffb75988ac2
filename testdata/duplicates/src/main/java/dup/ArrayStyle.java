package dup;

/** An array declared in C style. */
public final class ArrayStyle {
    private ArrayStyle() {
    }

    /**
     * The first value.
     *
     * @param values the values
     * @return the first
     */
    public static int first(final int values[]) {
        return values[0];
    }
}
