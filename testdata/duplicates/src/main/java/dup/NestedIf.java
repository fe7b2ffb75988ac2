package dup;

/** If statements nested too deep. */
public final class NestedIf {
    private NestedIf() {
    }

    /**
     * Whether all four flags are set.
     *
     * @param a a flag
     * @param b a flag
     * @param c a flag
     * @param d a flag
     * @return true when all are
     */
    public static boolean all(final boolean a, final boolean b, final boolean c, final boolean d) {
        boolean all = false;
        if (a) {
            if (b) {
                if (c) {
                    if (d) {
                        all = true;
                    }
                }
            }
        }
        return all;
    }
}
