package dup;

/** Case conversions that depend on the default locale. */
public final class CaseConversion {
    private CaseConversion() {
    }

    /**
     * The key of a name.
     *
     * @param name a name
     * @return its key
     */
    public static String key(final String name) {
        return name.toUpperCase();
    }
}
