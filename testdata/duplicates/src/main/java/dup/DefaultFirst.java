package dup;

/** A switch whose default case is not the last. */
public final class DefaultFirst {
    private DefaultFirst() {
    }

    /**
     * The name of a level.
     *
     * @param level 1 or 2
     * @return its name
     */
    public static String name(final int level) {
        String name;
        switch (level) {
            default:
                name = "other";
                break;
            case 1:
                name = "low";
                break;
            case 2:
                name = "high";
                break;
        }
        return name;
    }
}
