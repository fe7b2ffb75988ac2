package dup;

/** A switch without a default case. */
public final class SwitchDefault {
    private SwitchDefault() {
    }

    /**
     * The name of a weekday.
     *
     * @param day 1 for Monday, 2 for Tuesday
     * @return its name, "" for another day
     */
    public static String name(final int day) {
        String name = "";
        switch (day) {
            case 1:
                name = "Monday";
                break;
            case 2:
                name = "Tuesday";
                break;
        }
        return name;
    }
}
