package dup;

/** A final field set to a constant, in every instance. */
public final class StaticField {
    /** The greeting. */
    private final String greeting = "hello";

    /**
     * Says hello.
     *
     * @return the greeting
     */
    public String greet() {
        return greeting;
    }
}
