package io.pdla.simpfs.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Reads and writes {@link SimPfsConfig} as JSON ({@code .json}) or Java properties (any other name, dotted
 * keys such as {@code hdd.rpm=5400}). A file only lists what differs from the defaults; an unknown key or a
 * value of the wrong type is an error naming the file and the key.
 */
public final class ConfigFiles {
    public static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ConfigFiles() {
    }

    public static SimPfsConfig load(Path file) {
        String where = file.toString();
        if (!Files.isRegularFile(file)) throw new ConfigException("config file " + where + " does not exist");
        try {
            JsonNode user;
            if (file.getFileName().toString().endsWith(".json")) {
                user = JSON.readTree(file.toFile());
                if (user == null || !user.isObject()) throw new ConfigException(where + ": a sim-pfs config must be a JSON object");
            } else {
                Properties props = new Properties();
                try (Reader r = Files.newBufferedReader(file)) {
                    props.load(r);
                }
                user = fromProperties(props, where);
            }
            return merge(user, where);
        } catch (JsonProcessingException e) {
            throw new ConfigException(where + ": not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ConfigException(where + ": cannot read: " + e.getMessage(), e);
        }
    }

    public static SimPfsConfig fromJson(String json, String where) {
        try {
            JsonNode user = JSON.readTree(json);
            if (user == null || !user.isObject()) throw new ConfigException(where + ": a sim-pfs config must be a JSON object");
            return merge(user, where);
        } catch (JsonProcessingException e) {
            throw new ConfigException(where + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    public static void write(SimPfsConfig config, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), config);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static SimPfsConfig merge(JsonNode user, String where) {
        ObjectNode base = JSON.valueToTree(SimPfsConfig.DEFAULT);
        mergeInto(base, user, "", where);
        try {
            return JSON.treeToValue(base, SimPfsConfig.class);
        } catch (JsonProcessingException e) {
            Throwable root = e.getCause() instanceof ConfigException ce ? ce : e;
            throw new ConfigException(where + ": " + (root instanceof ConfigException ? root.getMessage() : e.getOriginalMessage()), e);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
    }

    private static void mergeInto(ObjectNode base, JsonNode user, String prefix, String where) {
        Iterator<Map.Entry<String, JsonNode>> it = user.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = prefix + e.getKey();
            JsonNode old = base.get(e.getKey());
            if (old == null) {
                throw new ConfigException(where + ": unknown setting '" + key + "' (known here: " + names(base, prefix) + ")");
            }
            if (old.isObject()) {
                if (!e.getValue().isObject()) throw new ConfigException(where + ": setting '" + key + "' must be an object of settings");
                mergeInto((ObjectNode) old, e.getValue(), key + ".", where);
            } else {
                if (e.getValue().isContainerNode()) throw new ConfigException(where + ": setting '" + key + "' must be a single value");
                base.set(e.getKey(), coerce(old, e.getValue(), key, where));
            }
        }
    }

    private static JsonNode coerce(JsonNode old, JsonNode value, String key, String where) {
        if (!value.isTextual()) {
            if (old.isNumber() && !value.isNumber()) throw new ConfigException(where + ": setting '" + key + "' must be a number, was " + value);
            if (old.isBoolean() && !value.isBoolean()) throw new ConfigException(where + ": setting '" + key + "' must be true or false, was " + value);
            return value;
        }
        String text = value.asText().trim();
        if (old.isNumber()) {
            try {
                if (text.matches("-?\\d+")) return JSON.getNodeFactory().numberNode(Long.parseLong(text));
                return JSON.getNodeFactory().numberNode(Double.parseDouble(text));
            } catch (NumberFormatException e) {
                throw new ConfigException(where + ": setting '" + key + "' must be a number, was '" + text + "'");
            }
        }
        if (old.isBoolean()) {
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw new ConfigException(where + ": setting '" + key + "' must be true or false, was '" + text + "'");
            }
            return JSON.getNodeFactory().booleanNode(Boolean.parseBoolean(text));
        }
        return value;
    }

    private static String names(ObjectNode node, String prefix) {
        StringBuilder b = new StringBuilder();
        node.fieldNames().forEachRemaining(n -> b.append(b.length() == 0 ? "" : ", ").append(prefix).append(n));
        return b.toString();
    }

    private static JsonNode fromProperties(Properties props, String where) {
        ObjectNode root = JSON.createObjectNode();
        Map<String, String> sorted = new TreeMap<>();
        for (String k : props.stringPropertyNames()) sorted.put(k, props.getProperty(k));
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            String[] path = e.getKey().split("\\.");
            ObjectNode node = root;
            for (int i = 0; i < path.length - 1; i++) {
                JsonNode child = node.get(path[i]);
                if (child == null) child = node.putObject(path[i]);
                if (!child.isObject()) throw new ConfigException(where + ": key '" + e.getKey() + "' clashes with a plain setting");
                node = (ObjectNode) child;
            }
            node.put(path[path.length - 1], e.getValue());
        }
        return root;
    }
}
