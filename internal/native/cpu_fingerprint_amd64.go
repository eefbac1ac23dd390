package native

import "fmt"

// cpuFingerprint tells processors apart for the identity's memo without
// /proc/cpuinfo, whose text the kernel formats anew for every reader (80
// µs of CPU per process on a 2-core VM): the vendor, the family, model and
// stepping, and the feature bits of leaves 1, 7 and 0x80000001, from four
// CPUID instructions (each a few µs where a hypervisor traps it, far less
// on bare metal). A processor with other features has other bits here as
// in cpuinfo's flags. Leaf 1's EBX is left out: it holds the APIC ID of
// whichever core runs the instruction.
func cpuFingerprint() string {
	maxLeaf, vendorB, vendorC, vendorD := cpuid(0, 0)
	signature, _, features1C, features1D := cpuid(1, 0)
	var features7B, features7C, features7D uint32
	if maxLeaf >= 7 {
		_, features7B, features7C, features7D = cpuid(7, 0)
	}
	_, _, extendedC, extendedD := cpuid(0x80000001, 0)
	return fmt.Sprintf("cpuid %x %x %x %x; %x %x %x; %x %x %x; %x %x\n", maxLeaf, vendorB, vendorC, vendorD,
		signature, features1C, features1D, features7B, features7C, features7D, extendedC, extendedD)
}

func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
