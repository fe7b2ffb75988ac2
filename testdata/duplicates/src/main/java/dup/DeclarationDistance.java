package dup;

/** A variable declared long before it is used. */
public final class DeclarationDistance {
    private DeclarationDistance() {
    }

    /**
     * Writes letters, and gives a name trimmed.
     *
     * @param builder where to write
     * @param name a name
     * @return the name, trimmed
     */
    public static String report(final StringBuilder builder, final String name) {
        String trimmed = name.trim();
        builder.append('a');
        builder.append('b');
        builder.append('c');
        builder.append('d');
        builder.append('e');
        builder.append('f');
        builder.append('g');
        builder.append('h');
        builder.append('i');
        return trimmed;
    }
}
