package dup;

/** A method too complex and too long. */
public final class Complexity {
    private Complexity() {
    }

    /**
     * A score made of many flags.
     *
     * @param flags the flags
     * @return the score
     */
    public static int score(final boolean[] flags) {
        int score = 0;
        if (flags[0]) {
            score += 1;
        }
        if (flags[1]) {
            score += 2;
        }
        if (flags[2]) {
            score += 3;
        }
        if (flags[3]) {
            score += 4;
        }
        if (flags[4]) {
            score += 5;
        }
        if (flags[5]) {
            score += 6;
        }
        if (flags[6]) {
            score += 7;
        }
        if (flags[7]) {
            score += 8;
        }
        if (flags[8]) {
            score += 9;
        }
        if (flags[9]) {
            score += 10;
        }
        if (flags[10]) {
            score += 11;
        }
        if (flags[11]) {
            score += 12;
        }
        score = score ^ 1;
        score = score ^ 2;
        score = score ^ 3;
        score = score ^ 4;
        score = score ^ 5;
        score = score ^ 6;
        score = score ^ 7;
        score = score ^ 8;
        score = score ^ 9;
        score = score ^ 10;
        score = score ^ 11;
        score = score ^ 12;
        score = score ^ 13;
        score = score ^ 14;
        score = score ^ 15;
        score = score ^ 16;
        score = score ^ 17;
        score = score ^ 18;
        score = score ^ 19;
        score = score ^ 20;
        score = score ^ 21;
        score = score ^ 22;
        score = score ^ 23;
        score = score ^ 24;
        score = score ^ 25;
        score = score ^ 26;
        score = score ^ 27;
        score = score ^ 28;
        score = score ^ 29;
        score = score ^ 30;
        score = score ^ 31;
        score = score ^ 32;
        score = score ^ 33;
        score = score ^ 34;
        score = score ^ 35;
        score = score ^ 36;
        score = score ^ 37;
        score = score ^ 38;
        score = score ^ 39;
        score = score ^ 40;
        score = score ^ 41;
        score = score ^ 42;
        score = score ^ 43;
        score = score ^ 44;
        score = score ^ 45;
        score = score ^ 46;
        score = score ^ 47;
        score = score ^ 48;
        score = score ^ 49;
        score = score ^ 50;
        return score;
    }
}
