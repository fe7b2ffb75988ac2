package dup;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Resources opened and not closed on every path. */
public final class Resources {
    private final Connection connection;

    /**
     * Resources of a connection.
     *
     * @param connection the database
     */
    public Resources(final Connection connection) {
        this.connection = connection;
    }

    /**
     * The first byte of a file.
     *
     * @param name the file's name
     * @return its first byte
     * @throws IOException when it cannot be read
     */
    public static int firstByte(final String name) throws IOException {
        final InputStream in = new FileInputStream(name);
        return in.read();
    }

    /**
     * The second byte of a file.
     *
     * @param name the file's name
     * @return its second byte
     * @throws IOException when it cannot be read
     */
    public static int secondByte(final String name) throws IOException {
        final InputStream in = new FileInputStream(name);
        in.read();
        final int second = in.read();
        in.close();
        return second;
    }

    /**
     * Deletes the old orders.
     *
     * @throws SQLException when the database fails
     */
    public void purge() throws SQLException {
        final Statement statement = connection.createStatement();
        statement.executeUpdate("DELETE FROM orders WHERE old");
    }

    /**
     * Deletes the archived orders.
     *
     * @throws SQLException when the database fails
     */
    public void purgeArchive() throws SQLException {
        final Statement statement = connection.createStatement();
        statement.executeUpdate("DELETE FROM orders WHERE archived");
        statement.close();
    }
}
