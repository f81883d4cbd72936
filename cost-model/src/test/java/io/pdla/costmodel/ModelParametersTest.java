package io.pdla.costmodel;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelParametersTest {

    private static final ModelParameters ODD = new ModelParameters(
            new NetworkParameters(1.0 / 3e4, 1.0 / 117e6), new DeviceParameters(0.0123456789, 1.0 / 79e6),
            new DeviceParameters(7e-5, 1.0 / 401e6), new DeviceParameters(2.5e-4, 1.0 / 249e6));

    @Test
    void propertiesRoundTripExactlyThroughAFile() throws IOException {
        StringWriter out = new StringWriter();
        ODD.toProperties().store(out, "calibrated");
        Properties read = new Properties();
        read.load(new StringReader(out.toString()));
        assertEquals(ODD, ModelParameters.fromProperties(read));
    }

    @Test
    void missingKeysFallBackAndBadValuesAreNamed() {
        Properties partial = new Properties();
        partial.setProperty("pdla.cost.hdd.startupSeconds", "0.004");
        ModelParameters p = ModelParameters.fromProperties(partial, ODD);
        assertEquals(0.004, p.hdd().startupSeconds());
        assertEquals(ODD.network(), p.network());
        partial.setProperty("pdla.cost.ssd.write.secondsPerByte", "-1e-9");
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> ModelParameters.fromProperties(partial));
        assertTrue(ex.getMessage().contains("pdla.cost.ssd.write.secondsPerByte") && ex.getMessage().contains("-1.0E-9"),
                ex.getMessage());
        partial.setProperty("pdla.cost.ssd.write.secondsPerByte", "fast");
        assertThrows(IllegalArgumentException.class, () -> ModelParameters.fromProperties(partial));
    }

    @Test
    void isJavaSerializable() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(ODD);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(ODD, in.readObject());
        }
    }

    @Test
    void defaultsAreInTheDocumentedHardwareRanges() {
        ModelParameters d = ModelParameters.defaults();
        // architecture.md "Timing in sim-pfs": gigabit ~117 MB/s, tens to a hundred us set-up
        assertTrue(d.network().connectSeconds() >= 10e-6 && d.network().connectSeconds() <= 100e-6);
        // 7200 RPM SATA: seek + rotation 8-13 ms, 60-110 MB/s
        assertTrue(d.hdd().startupSeconds() >= 8e-3 && d.hdd().startupSeconds() <= 13e-3);
        assertTrue(1 / d.hdd().secondsPerByte() >= 60e6 && 1 / d.hdd().secondsPerByte() <= 110e6);
        // SSD: reads 0.05-0.1 ms, 250-540 MB/s; writes slower than reads
        assertTrue(d.ssdRead().startupSeconds() >= 0.05e-3 && d.ssdRead().startupSeconds() <= 0.1e-3);
        assertTrue(d.ssdWrite().startupSeconds() > d.ssdRead().startupSeconds());
        assertTrue(d.ssdWrite().secondsPerByte() > d.ssdRead().secondsPerByte());
    }
}
