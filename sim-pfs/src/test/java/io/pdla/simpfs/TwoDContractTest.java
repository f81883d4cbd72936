package io.pdla.simpfs;

/** 2-D with small regions that cross group boundaries often. */
class TwoDContractTest extends SimPfsContractTest { TwoDContractTest() { super("2d:2,stripe=1k,region=10000,space=hdd"); } }
