package io.pdla.patterns.rootcause;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntervalCsvTest {
    @TempDir
    Path dir;

    @Test
    void readsRequiredAndOptionalColumnsInAnyOrder() throws Exception {
        Path f = Files.writeString(dir.resolve("i.csv"), "end,file,start,ranks,collective,small_requests,requests\n"
                + "10,/a,0,0;1;2,1,5,10\n12,/b,6,,,,\n");
        List<FileIoStats> s = IntervalCsv.read(f);
        assertEquals(2, s.size());
        assertEquals(new FileIoStats("/a", 0, 10, null, null, 10L, 5L, null, true, Set.of(0, 1, 2), null, null, null), s.get(0));
        assertNull(s.get(1).ranks());
    }

    @Test
    void errorsNameFileLineAndColumn() throws Exception {
        Path f = Files.writeString(dir.resolve("bad.csv"), "file,start,end\n/a,0,1\n/b,x,2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IntervalCsv.read(f));
        assertTrue(e.getMessage().contains("bad.csv:3") && e.getMessage().contains("'start'"), e.getMessage());
        Path g = Files.writeString(dir.resolve("hdr.csv"), "file,start\n/a,0\n");
        e = assertThrows(IllegalArgumentException.class, () -> IntervalCsv.read(g));
        assertTrue(e.getMessage().contains("lacks column 'end'"), e.getMessage());
        Path h = Files.writeString(dir.resolve("rev.csv"), "file,start,end\n/a,5,1\n");
        e = assertThrows(IllegalArgumentException.class, () -> IntervalCsv.read(h));
        assertTrue(e.getMessage().contains("rev.csv:2") && e.getMessage().contains("before start"), e.getMessage());
        // a file on two lines (BadInputFilesFuzzTest duplicated a line): named here, not by the analyzer without the CSV's name
        Path d = Files.writeString(dir.resolve("dup.csv"), "file,start,end\n/a,0,1\n/b,0,2\n/a,3,4\n");
        e = assertThrows(IllegalArgumentException.class, () -> IntervalCsv.read(d));
        assertEquals(d + ":4: file /a already has an interval on line 2; give one line per file", e.getMessage());
    }
}
