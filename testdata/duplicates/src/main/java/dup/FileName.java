package dup;

/** A type whose name is not the file's. */
final class OtherName {
    private OtherName() {
    }
}
