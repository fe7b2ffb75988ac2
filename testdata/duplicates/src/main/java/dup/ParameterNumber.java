package dup;

/** A method with too many parameters. */
public final class ParameterNumber {
    private ParameterNumber() {
    }

    /**
     * The sum of many values.
     *
     * @param a a value
     * @param b a value
     * @param c a value
     * @param d a value
     * @param e a value
     * @param f a value
     * @param g a value
     * @param h a value
     * @param i a value
     * @param j a value
     * @param k a value
     * @return their sum
     */
    public static int sum(final int a, final int b, final int c, final int d, final int e, final int f,
            final int g, final int h, final int i, final int j, final int k) {
        return a + b + c + d + e + f + g + h + i + j + k;
    }
}
