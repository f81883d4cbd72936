package io.pdla.costmodel;

import io.pdla.storage.Layout.Distribution;

import io.pdla.costmodel.benefit.BenefitCalculator;
import io.pdla.costmodel.hybrid.HybridCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input is rejected with an IllegalArgumentException that names the argument and the value. */
class ArgumentValidationTest {

    private static final ModelParameters P = ModelParameters.defaults();

    private static void rejects(Executable call, String name, String value) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, call);
        assertTrue(ex.getMessage().contains(name), () -> "message should name " + name + ": " + ex.getMessage());
        assertTrue(ex.getMessage().contains(value), () -> "message should show " + value + ": " + ex.getMessage());
    }

    @Test
    void nonPositiveProcessCountsAreRejected() {
        LayoutCostModel model = LayoutCostModel.hdd(P, 8);
        rejects(() -> model.requestSeconds(Distribution.ONE_DH, 1, 0, 1, 4096, Op.READ), "(p)", "0");
        rejects(() -> model.requestSeconds(Distribution.ONE_DV, 8, -3, 1, 4096, Op.READ), "(p)", "-3");
        rejects(() -> model.requestSeconds(Distribution.ONE_DV, 8, 4, 0, 4096, Op.READ), "(m)", "0");
        rejects(() -> AccessPattern.of(-1, 1, 4096, 1, Op.READ), "(p)", "-1");
    }

    @Test
    void nonPositiveServerCountsAreRejected() {
        rejects(() -> LayoutCostModel.hdd(P, 0), "(n)", "0");
        rejects(() -> LayoutCostModel.ssd(P, -2), "(n)", "-2");
        rejects(() -> new HybridCostModel(P, -1, 4), "(n_h)", "-1");
        rejects(() -> new HybridCostModel(P, 0, 0), "n_h + n_s", "0");
        rejects(() -> new BenefitCalculator(P, 8, 0), "(n_s)", "0");
    }

    @Test
    void nonPositiveSizesAreRejected() {
        LayoutCostModel model = LayoutCostModel.hdd(P, 8);
        rejects(() -> model.requestSeconds(Distribution.ONE_DH, 1, 4, 1, 0, Op.READ), "(s)", "0");
        rejects(() -> model.requestSeconds(Distribution.ONE_DH, 1, 4, 1, -5, Op.READ), "(s)", "-5");
        rejects(() -> new Request(0, 0, Op.WRITE), "(s)", "0");
        rejects(() -> new HybridCostModel(P, 2, 2).seconds(4, 1, -1, Op.READ, 0), "(s)", "-1");
    }

    @Test
    void negativeOrNonFiniteParametersAreRejected() {
        rejects(() -> new NetworkParameters(-1e-6, 1e-8), "e (", "-1.0E-6");
        rejects(() -> new NetworkParameters(1e-6, -2.0), "v (", "-2.0");
        rejects(() -> new DeviceParameters(-0.01, 1e-8), "a (", "-0.01");
        rejects(() -> new DeviceParameters(0.01, Double.NaN), "b (", "NaN");
        rejects(() -> new DeviceParameters(0.01, Double.POSITIVE_INFINITY), "b (", "Infinity");
    }

    @Test
    void invalidGroupCountsAreRejected() {
        LayoutCostModel model = LayoutCostModel.hdd(P, 8);
        rejects(() -> model.requestSeconds(Distribution.TWO_D, 1, 4, 1, 4096, Op.READ), "(g)", "1");
        rejects(() -> model.requestSeconds(Distribution.TWO_D, 8, 4, 1, 4096, Op.READ), "(g)", "8");
    }

    @Test
    void stripeOutsideTheFeasibleRangeIsRejected() {
        HybridCostModel model = new HybridCostModel(P, 4, 2);
        rejects(() -> model.seconds(4, 1, 4096, Op.READ, 2048), "(s_h)", "2048");
        rejects(() -> model.seconds(4, 1, 4096, Op.READ, -1), "(s_h)", "-1");
    }
}
