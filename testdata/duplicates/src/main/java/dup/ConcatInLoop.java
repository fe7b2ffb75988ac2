package dup;

/** A string built with += in a loop. */
public final class ConcatInLoop {
    private ConcatInLoop() {
    }

    /**
     * The names, one after the other.
     *
     * @param names the names
     * @return them joined
     */
    public static String join(final String[] names) {
        String joined = "";
        for (final String name : names) {
            joined += name;
        }
        return joined;
    }
}
