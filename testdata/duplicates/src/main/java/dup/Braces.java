package dup;

/** Control statements without braces. */
public final class Braces {
    private Braces() {
    }

    /**
     * Counts the positive values.
     *
     * @param values the values
     * @return how many are positive
     */
    public static int positives(final int[] values) {
        int count = 0;
        for (final int value : values) if (value > 0) count++;
        return count;
    }
}
