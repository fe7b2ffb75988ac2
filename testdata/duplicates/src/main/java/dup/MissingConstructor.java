package dup;

/** A class without a constructor. */
public final class MissingConstructor {
    private int count;

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
