import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * CI's skip check (run by .ci/skipped after the README's test command): lists every test the surefire and failsafe
 * reports mark skipped, with its reason, and fails when one is not on the allow-list (.ci/skip-allowlist.tsv: class
 * pattern, reason pattern, justification). CI runs as root with mount rights, O_DIRECT and extended attributes, so
 * anything else that skips there is a test that silently stopped running.
 */
public class Skipped {
    record Allowed(Pattern test, Pattern reason, String why) {}

    record Skip(String test, String reason) {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<Allowed> allowed = allowList(root.resolve(".ci/skip-allowlist.tsv"));
        List<Path> reports;
        try (Stream<Path> s = Files.walk(root, 4)) {
            reports = s.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")
                    && p.getParent().getFileName().toString().matches("(surefire|failsafe)-reports")
                    && p.getParent().getParent().getFileName().toString().equals("target")).sorted().toList();
        }
        if (reports.isEmpty()) {
            System.err.println("skipped: no surefire or failsafe report under " + root + " (did the tests run?)");
            System.exit(2);
        }
        List<Skip> skips = new ArrayList<>();
        int tests = 0;
        var factory = DocumentBuilderFactory.newInstance();
        for (Path r : reports) {
            NodeList cases = factory.newDocumentBuilder().parse(r.toFile()).getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element c = (Element) cases.item(i);
                tests++;
                NodeList sk = c.getElementsByTagName("skipped");
                if (sk.getLength() == 0) continue;
                skips.add(new Skip(c.getAttribute("classname") + "#" + c.getAttribute("name"), reason((Element) sk.item(0))));
            }
        }
        List<Skip> unexpected = new ArrayList<>();
        System.out.println("skipped tests: " + skips.size() + " of " + tests + " in " + reports.size() + " reports");
        for (Skip s : skips) {
            Allowed a = allowed.stream().filter(x -> x.test().matcher(s.test()).matches() && x.reason().matcher(s.reason()).find())
                    .findFirst().orElse(null);
            System.out.println((a == null ? "  NOT ALLOWED " : "  allowed     ") + s.test() + "\n      reason: " + s.reason()
                    + (a == null ? "" : "\n      why it may skip in CI: " + a.why()));
            if (a == null) unexpected.add(s);
        }
        if (!unexpected.isEmpty()) {
            System.out.println("skipped: " + unexpected.size() + " test(s) skipped that CI must run (root, mount rights, O_DIRECT and "
                    + "extended attributes are all here): fix the cause, or add a justified line to .ci/skip-allowlist.tsv");
            System.exit(1);
        }
    }

    /** The skip's message, or the first line of its text without JUnit's exception prefix. */
    static String reason(Element skipped) {
        String m = skipped.getAttribute("message");
        if (m.isBlank()) {
            String text = skipped.getTextContent().strip();
            m = text.isEmpty() ? "(no reason given)" : text.lines().findFirst().orElse("");
        }
        return m.replaceFirst("^org\\.opentest4j\\.TestAbortedException: ", "").replaceFirst("^Assumption failed: ", "").strip();
    }

    static List<Allowed> allowList(Path file) throws IOException {
        List<Allowed> out = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            if (f.length != 3 || f[2].isBlank()) {
                throw new IllegalArgumentException(file + ":" + n + ": want class-pattern TAB reason-pattern TAB justification");
            }
            out.add(new Allowed(Pattern.compile(f[0]), Pattern.compile(f[1]), f[2]));
        }
        return out;
    }
}
