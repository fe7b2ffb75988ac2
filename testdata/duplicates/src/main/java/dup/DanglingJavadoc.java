package dup;

/** A Javadoc comment that documents nothing. */
public final class DanglingJavadoc {
    private DanglingJavadoc() {
    }

    /**
     * Says hello.
     *
     * @return hello
     */
    public static String hello() {
        /** The greeting. */
        final String greeting = "hello";
        return greeting;
    }
}
