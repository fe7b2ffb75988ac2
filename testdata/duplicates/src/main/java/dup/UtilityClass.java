package dup;

/** A class of static methods that can be instantiated. */
public class UtilityClass {
    /**
     * The sum of two values.
     *
     * @param a a value
     * @param b another value
     * @return their sum
     */
    public static int sum(final int a, final int b) {
        return a + b;
    }
}
