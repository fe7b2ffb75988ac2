package dup;

/** Wrappers and strings made with constructors. */
public final class WrapperConstructor {
    private WrapperConstructor() {
    }

    /**
     * A boxed count.
     *
     * @param count a count
     * @return it boxed
     */
    public static Integer boxed(final int count) {
        return new Integer(count);
    }

    /**
     * A boxed price.
     *
     * @param price a price
     * @return it boxed
     */
    public static Double boxed(final double price) {
        return new Double(price);
    }

    /**
     * A boxed flag.
     *
     * @param flag a flag
     * @return it boxed
     */
    public static Boolean boxed(final boolean flag) {
        return new Boolean(flag);
    }

    /**
     * A copy of a text.
     *
     * @param text a text
     * @return a copy
     */
    public static String copy(final String text) {
        return new String(text);
    }
}
