package io.pdla.simpfs.config;

/** A configuration or layout specification that cannot be used; the message names the bad setting. */
public class ConfigException extends IllegalArgumentException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
