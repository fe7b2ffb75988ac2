package dup;

/** Values assigned and never read. */
public final class DeadStore {
    private DeadStore() {
    }

    /**
     * The length of a name.
     *
     * @param name a name
     * @return its length
     */
    public static int length(final String name) {
        int length = name.length();
        length = name.trim().length();
        return name.length();
    }

    /**
     * The length of a name, trimmed.
     *
     * @param name a name
     * @return its length once trimmed
     */
    public static int trimmed(final String name) {
        int spare = name.length();
        return name.trim().length();
    }
}
