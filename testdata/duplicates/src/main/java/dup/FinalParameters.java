package dup;

/** Parameters that are never assigned and not declared final. */
public final class FinalParameters {
    private FinalParameters() {
    }

    /**
     * The larger of two counts.
     *
     * @param first a count
     * @param second another count
     * @return the larger
     */
    public static int larger(int first, int second) {
        return Math.max(first, second);
    }
}
