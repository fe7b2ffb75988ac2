package dup;

/** Variables assigned to themselves. */
public final class SelfAssignment {
    private int size;

    /**
     * A value, unchanged.
     *
     * @param value a value
     * @return the value
     */
    public static int same(final int value) {
        int copy = value;
        copy = copy;
        return copy;
    }

    /**
     * Keeps the size.
     *
     * @param value the new size, ignored
     */
    public void resize(final int value) {
        size = size;
    }

    /**
     * The size.
     *
     * @return the size
     */
    public int size() {
        return size;
    }
}
