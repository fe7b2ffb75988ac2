package dup;

/** A field initialized to its type's default value. */
public final class ExplicitInitialization {
    private int count = 0;

    /** Counts one more. */
    public void add() {
        count++;
    }

    /**
     * The count.
     *
     * @return it
     */
    public int count() {
        return count;
    }
}
