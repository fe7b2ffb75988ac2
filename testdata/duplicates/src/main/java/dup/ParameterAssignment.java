package dup;

/** A parameter assigned in the method's body. */
public final class ParameterAssignment {
    private ParameterAssignment() {
    }

    /**
     * A name, or "anonymous".
     *
     * @param name a name or null
     * @return the name
     */
    public static String orAnonymous(String name) {
        if (name == null) {
            name = "anonymous";
        }
        return name;
    }
}
