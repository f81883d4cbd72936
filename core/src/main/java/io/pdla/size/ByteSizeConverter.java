package io.pdla.size;

import picocli.CommandLine;

/**
 * Reads every size option of every command with {@link ByteSize}, e.g.
 * {@code @Option(names = "--stripe", converter = ByteSizeConverter.class) long stripe}. picocli puts the
 * option's name before the message ("Invalid value for option '--stripe': ..."). picocli is an optional
 * dependency of core: this class is only loaded by programs that have it.
 */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        try {
            return ByteSize.parse(value, "size");
        } catch (ByteSize.Invalid e) {
            throw new CommandLine.TypeConversionException(e.reason());
        }
    }
}
