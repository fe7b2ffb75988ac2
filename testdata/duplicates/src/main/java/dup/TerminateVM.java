package dup;

/** A library that stops the virtual machine. */
public final class TerminateVM {
    private TerminateVM() {
    }

    /** Gives up. */
    public static void giveUp() { System.exit(1); }
}
