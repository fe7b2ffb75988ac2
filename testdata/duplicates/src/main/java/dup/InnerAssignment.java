package dup;

/** An assignment inside an expression. */
public final class InnerAssignment {
    private int last;

    /**
     * Remembers a value and tells whether it is positive.
     *
     * @param value a value
     * @return true when it is positive
     */
    public boolean remember(final int value) {
        return (last = value) > 0;
    }

    /**
     * The last value remembered.
     *
     * @return the value
     */
    public int last() {
        return last;
    }
}
