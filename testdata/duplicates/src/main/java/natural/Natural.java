package natural;

/**
 * Problems of the classes shown in package dup, written as they usually are:
 * the tools place some of them on different lines (docs/formats.md,
 * "Duplicates").
 */
public class Natural implements Cloneable {
    @Deprecated
    public int legacy;

    private int size;

    /**
     * Counts the positive values.
     *
     * @param values the values
     * @return how many are positive
     */
    public static int positives(final int[] values) {
        int count = 0;
        for (final int value : values) {
            if (value > 0)
                count++;
        }
        return count;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Natural && size == ((Natural) other).size;
    }

    @Override
    public Natural clone() {
        final Natural copy = new Natural();
        copy.size = size;
        return copy;
    }

    @Deprecated
    public int undocumented() {
        return size;
    }

    private static int unused(final int value) {
        final int next = value + 1;
        return next;
    }
}
