package dup;

/** A boolean compared with true. */
public final class BooleanExpression {
    private BooleanExpression() {
    }

    /**
     * The opposite of a flag.
     *
     * @param flag a flag
     * @return its opposite
     */
    public static boolean not(final boolean flag) {
        return flag == false;
    }
}
