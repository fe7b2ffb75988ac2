package dup;

/** A loop's control variable changed in its body. */
public final class LoopVariable {
    private LoopVariable() {
    }

    /**
     * The sum of every other value.
     *
     * @param values the values
     * @return their sum
     */
    public static long everyOther(final long[] values) {
        long sum = 0;
        for (int i = 0; i < values.length; i++) {
            sum += values[i];
            i++;
        }
        return sum;
    }
}
