package dup;

/** An if statement that returns true or false. */
public final class BooleanReturn {
    private BooleanReturn() {
    }

    /**
     * Whether a count is positive.
     *
     * @param count a count
     * @return true when it is
     */
    public static boolean positive(final int count) {
        if (count > 0) {
            return true;
        } else {
            return false;
        }
    }
}
