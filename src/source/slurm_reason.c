#include "source/slurm_reason.h"

#include <slurm/slurm.h>

/* Reason names as squeue prints them. Cases use slurm.h's enumerators, never
 * numbers: the values moved between releases (slot 17 was WAIT_FRONT_END up
 * to 24.11 and is WAIT_NVIDIA_IMEX_CHANNELS from 25.11; slot 33 was
 * WAIT_BLOCK_MAX_ERR up to 22.05 and is FAIL_SIGNAL from 23.02). Enumerators
 * that came or went are behind SLURM_VERSION_NUMBER guards; the strings did
 * not change between 22.05 and 25.11, oddities included (both
 * WAIT_PART_DOWN and FAIL_DOWN_PARTITION are "PartitionDown";
 * WAIT_QOS_MAX_BB_MINS_PER_JOB reads "AssocMaxBBMinutesPerJob"). */

enum {
	LIM = 1u << 0,      /* association or QOS limit */
	GRP_GRES = 1u << 1, /* GrpTRES/GrpTRESMins/GrpTRESRunMins on a GRES */
};

#define REASON(e, str, fl) \
	case e:            \
		*flags = (fl); \
		return str;

static const char *reason_lookup(unsigned reason, unsigned *flags)
{
	switch (reason) {
	/* Pending, general. */
	REASON(WAIT_NO_REASON, "None", 0)
	REASON(WAIT_PRIORITY, "Priority", 0)
	REASON(WAIT_DEPENDENCY, "Dependency", 0)
	REASON(WAIT_RESOURCES, "Resources", 0)
	REASON(WAIT_PART_NODE_LIMIT, "PartitionNodeLimit", 0)
	REASON(WAIT_PART_TIME_LIMIT, "PartitionTimeLimit", 0)
	REASON(WAIT_PART_DOWN, "PartitionDown", 0)
	REASON(WAIT_PART_INACTIVE, "PartitionInactive", 0)
	REASON(WAIT_HELD, "JobHeldAdmin", 0)
	REASON(WAIT_TIME, "BeginTime", 0)
	REASON(WAIT_LICENSES, "Licenses", 0)
	REASON(WAIT_ASSOC_JOB_LIMIT, "AssociationJobLimit", LIM)
	REASON(WAIT_ASSOC_RESOURCE_LIMIT, "AssociationResourceLimit", LIM)
	REASON(WAIT_ASSOC_TIME_LIMIT, "AssociationTimeLimit", LIM)
	REASON(WAIT_RESERVATION, "Reservation", 0)
	REASON(WAIT_NODE_NOT_AVAIL, "ReqNodeNotAvail", 0)
	REASON(WAIT_HELD_USER, "JobHeldUser", 0)
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(25, 5, 0) /* gone in 25.05 */
	REASON(WAIT_FRONT_END, "FrontEndDown", 0)
#endif
	/* Failures (also shown for finished jobs). */
	REASON(FAIL_DEFER, "SchedDefer", 0)
	REASON(FAIL_DOWN_PARTITION, "PartitionDown", 0)
	REASON(FAIL_DOWN_NODE, "NodeDown", 0)
	REASON(FAIL_BAD_CONSTRAINTS, "BadConstraints", 0)
	REASON(FAIL_SYSTEM, "SystemFailure", 0)
	REASON(FAIL_LAUNCH, "JobLaunchFailure", 0)
	REASON(FAIL_EXIT_CODE, "NonZeroExitCode", 0)
	REASON(FAIL_TIMEOUT, "TimeLimit", 0)
	REASON(FAIL_INACTIVE_LIMIT, "InactiveLimit", 0)
	REASON(FAIL_ACCOUNT, "InvalidAccount", 0)
	REASON(FAIL_QOS, "InvalidQOS", 0)
	/* Old-style QOS limits. */
	REASON(WAIT_QOS_THRES, "QOSUsageThreshold", LIM)
	REASON(WAIT_QOS_JOB_LIMIT, "QOSJobLimit", LIM)
	REASON(WAIT_QOS_RESOURCE_LIMIT, "QOSResourceLimit", LIM)
	REASON(WAIT_QOS_TIME_LIMIT, "QOSTimeLimit", LIM)
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0) /* gone in 23.02 */
	REASON(WAIT_BLOCK_MAX_ERR, "BlockMaxError", 0)
	REASON(WAIT_BLOCK_D_ACTION, "BlockFreeAction", 0)
#endif
	/* Pending, misc. */
	REASON(WAIT_CLEANING, "Cleaning", 0)
	REASON(WAIT_PROLOG, "Prolog", 0)
	REASON(WAIT_QOS, "QOSNotAllowed", 0)
	REASON(WAIT_ACCOUNT, "AccountNotAllowed", 0)
	REASON(WAIT_DEP_INVALID, "DependencyNeverSatisfied", 0)
	/* QOS limits, first TRES generation. */
	REASON(WAIT_QOS_GRP_CPU, "QOSGrpCpuLimit", LIM)
	REASON(WAIT_QOS_GRP_CPU_MIN, "QOSGrpCPUMinutesLimit", LIM)
	REASON(WAIT_QOS_GRP_CPU_RUN_MIN, "QOSGrpCPURunMinutesLimit", LIM)
	REASON(WAIT_QOS_GRP_JOB, "QOSGrpJobsLimit", LIM)
	REASON(WAIT_QOS_GRP_MEM, "QOSGrpMemLimit", LIM)
	REASON(WAIT_QOS_GRP_NODE, "QOSGrpNodeLimit", LIM)
	REASON(WAIT_QOS_GRP_SUB_JOB, "QOSGrpSubmitJobsLimit", LIM)
	REASON(WAIT_QOS_GRP_WALL, "QOSGrpWallLimit", LIM)
	REASON(WAIT_QOS_MAX_CPU_PER_JOB, "QOSMaxCpuPerJobLimit", LIM)
	REASON(WAIT_QOS_MAX_CPU_MINS_PER_JOB, "QOSMaxCpuMinutesPerJobLimit", LIM)
	REASON(WAIT_QOS_MAX_NODE_PER_JOB, "QOSMaxNodePerJobLimit", LIM)
	REASON(WAIT_QOS_MAX_WALL_PER_JOB, "QOSMaxWallDurationPerJobLimit", LIM)
	REASON(WAIT_QOS_MAX_CPU_PER_USER, "QOSMaxCpuPerUserLimit", LIM)
	REASON(WAIT_QOS_MAX_JOB_PER_USER, "QOSMaxJobsPerUserLimit", LIM)
	REASON(WAIT_QOS_MAX_NODE_PER_USER, "QOSMaxNodePerUserLimit", LIM)
	REASON(WAIT_QOS_MAX_SUB_JOB, "QOSMaxSubmitJobPerUserLimit", LIM)
	REASON(WAIT_QOS_MIN_CPU, "QOSMinCpuNotSatisfied", LIM)
	/* Association limits, first TRES generation. */
	REASON(WAIT_ASSOC_GRP_CPU, "AssocGrpCpuLimit", LIM)
	REASON(WAIT_ASSOC_GRP_CPU_MIN, "AssocGrpCPUMinutesLimit", LIM)
	REASON(WAIT_ASSOC_GRP_CPU_RUN_MIN, "AssocGrpCPURunMinutesLimit", LIM)
	REASON(WAIT_ASSOC_GRP_JOB, "AssocGrpJobsLimit", LIM)
	REASON(WAIT_ASSOC_GRP_MEM, "AssocGrpMemLimit", LIM)
	REASON(WAIT_ASSOC_GRP_NODE, "AssocGrpNodeLimit", LIM)
	REASON(WAIT_ASSOC_GRP_SUB_JOB, "AssocGrpSubmitJobsLimit", LIM)
	REASON(WAIT_ASSOC_GRP_WALL, "AssocGrpWallLimit", LIM)
	REASON(WAIT_ASSOC_MAX_JOBS, "AssocMaxJobsLimit", LIM)
	REASON(WAIT_ASSOC_MAX_CPU_PER_JOB, "AssocMaxCpuPerJobLimit", LIM)
	REASON(WAIT_ASSOC_MAX_CPU_MINS_PER_JOB, "AssocMaxCpuMinutesPerJobLimit", LIM)
	REASON(WAIT_ASSOC_MAX_NODE_PER_JOB, "AssocMaxNodePerJobLimit", LIM)
	REASON(WAIT_ASSOC_MAX_WALL_PER_JOB, "AssocMaxWallDurationPerJobLimit", LIM)
	REASON(WAIT_ASSOC_MAX_SUB_JOB, "AssocMaxSubmitJobLimit", LIM)
	/* Pending, misc. */
	REASON(WAIT_MAX_REQUEUE, "JobHoldMaxRequeue", 0)
	REASON(WAIT_ARRAY_TASK_LIMIT, "JobArrayTaskLimit", 0)
	REASON(WAIT_BURST_BUFFER_RESOURCE, "BurstBufferResources", 0)
	REASON(WAIT_BURST_BUFFER_STAGING, "BurstBufferStageIn", 0)
	REASON(FAIL_BURST_BUFFER_OP, "BurstBufferOperation", 0)
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0) /* gone in 24.05 */
	REASON(WAIT_POWER_NOT_AVAIL, "PowerNotAvail", 0)
	REASON(WAIT_POWER_RESERVED, "PowerReserved", 0)
#endif
	/* Association TRES limits. */
	REASON(WAIT_ASSOC_GRP_UNK, "AssocGrpUnknown", LIM)
	REASON(WAIT_ASSOC_GRP_UNK_MIN, "AssocGrpUnknownMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_UNK_RUN_MIN, "AssocGrpUnknownRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_UNK_PER_JOB, "AssocMaxUnknownPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_UNK_PER_NODE, "AssocMaxUnknownPerNode", LIM)
	REASON(WAIT_ASSOC_MAX_UNK_MINS_PER_JOB, "AssocMaxUnknownMinutesPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_CPU_PER_NODE, "AssocMaxCpuPerNode", LIM)
	REASON(WAIT_ASSOC_GRP_MEM_MIN, "AssocGrpMemMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_MEM_RUN_MIN, "AssocGrpMemRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_MEM_PER_JOB, "AssocMaxMemPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_MEM_PER_NODE, "AssocMaxMemPerNode", LIM)
	REASON(WAIT_ASSOC_MAX_MEM_MINS_PER_JOB, "AssocMaxMemMinutesPerJob", LIM)
	REASON(WAIT_ASSOC_GRP_NODE_MIN, "AssocGrpNodeMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_NODE_RUN_MIN, "AssocGrpNodeRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_NODE_MINS_PER_JOB, "AssocMaxNodeMinutesPerJob", LIM)
	REASON(WAIT_ASSOC_GRP_ENERGY, "AssocGrpEnergy", LIM)
	REASON(WAIT_ASSOC_GRP_ENERGY_MIN, "AssocGrpEnergyMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_ENERGY_RUN_MIN, "AssocGrpEnergyRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_ENERGY_PER_JOB, "AssocMaxEnergyPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_ENERGY_PER_NODE, "AssocMaxEnergyPerNode", LIM)
	REASON(WAIT_ASSOC_MAX_ENERGY_MINS_PER_JOB, "AssocMaxEnergyMinutesPerJob", LIM)
	REASON(WAIT_ASSOC_GRP_GRES, "AssocGrpGRES", LIM | GRP_GRES)
	REASON(WAIT_ASSOC_GRP_GRES_MIN, "AssocGrpGRESMinutes", LIM | GRP_GRES)
	REASON(WAIT_ASSOC_GRP_GRES_RUN_MIN, "AssocGrpGRESRunMinutes", LIM | GRP_GRES)
	REASON(WAIT_ASSOC_MAX_GRES_PER_JOB, "AssocMaxGRESPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_GRES_PER_NODE, "AssocMaxGRESPerNode", LIM)
	REASON(WAIT_ASSOC_MAX_GRES_MINS_PER_JOB, "AssocMaxGRESMinutesPerJob", LIM)
	REASON(WAIT_ASSOC_GRP_LIC, "AssocGrpLicense", LIM)
	REASON(WAIT_ASSOC_GRP_LIC_MIN, "AssocGrpLicenseMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_LIC_RUN_MIN, "AssocGrpLicenseRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_LIC_PER_JOB, "AssocMaxLicensePerJob", LIM)
	REASON(WAIT_ASSOC_MAX_LIC_MINS_PER_JOB, "AssocMaxLicenseMinutesPerJob", LIM)
	REASON(WAIT_ASSOC_GRP_BB, "AssocGrpBB", LIM)
	REASON(WAIT_ASSOC_GRP_BB_MIN, "AssocGrpBBMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_BB_RUN_MIN, "AssocGrpBBRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_BB_PER_JOB, "AssocMaxBBPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_BB_PER_NODE, "AssocMaxBBPerNode", LIM)
	REASON(WAIT_ASSOC_MAX_BB_MINS_PER_JOB, "AssocMaxBBMinutesPerJob", LIM)
	/* QOS TRES limits. Note the upstream "AssocMaxBBMinutesPerJob" string
	 * for WAIT_QOS_MAX_BB_MINS_PER_JOB: squeue really prints that. */
	REASON(WAIT_QOS_GRP_UNK, "QOSGrpUnknown", LIM)
	REASON(WAIT_QOS_GRP_UNK_MIN, "QOSGrpUnknownMinutes", LIM)
	REASON(WAIT_QOS_GRP_UNK_RUN_MIN, "QOSGrpUnknownRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_UNK_PER_JOB, "QOSMaxUnknownPerJob", LIM)
	REASON(WAIT_QOS_MAX_UNK_PER_NODE, "QOSMaxUnknownPerNode", LIM)
	REASON(WAIT_QOS_MAX_UNK_PER_USER, "QOSMaxUnknownPerUser", LIM)
	REASON(WAIT_QOS_MAX_UNK_MINS_PER_JOB, "QOSMaxUnknownMinutesPerJob", LIM)
	REASON(WAIT_QOS_MIN_UNK, "QOSMinUnknown", LIM)
	REASON(WAIT_QOS_MAX_CPU_PER_NODE, "QOSMaxCpuPerNode", LIM)
	REASON(WAIT_QOS_GRP_MEM_MIN, "QOSGrpMemoryMinutes", LIM)
	REASON(WAIT_QOS_GRP_MEM_RUN_MIN, "QOSGrpMemoryRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_MEM_MINS_PER_JOB, "QOSMaxMemoryMinutesPerJob", LIM)
	REASON(WAIT_QOS_MAX_MEM_PER_JOB, "QOSMaxMemoryPerJob", LIM)
	REASON(WAIT_QOS_MAX_MEM_PER_NODE, "QOSMaxMemoryPerNode", LIM)
	REASON(WAIT_QOS_MAX_MEM_PER_USER, "QOSMaxMemoryPerUser", LIM)
	REASON(WAIT_QOS_MIN_MEM, "QOSMinMemory", LIM)
	REASON(WAIT_QOS_GRP_ENERGY, "QOSGrpEnergy", LIM)
	REASON(WAIT_QOS_GRP_ENERGY_MIN, "QOSGrpEnergyMinutes", LIM)
	REASON(WAIT_QOS_GRP_ENERGY_RUN_MIN, "QOSGrpEnergyRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_PER_JOB, "QOSMaxEnergyPerJob", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_PER_NODE, "QOSMaxEnergyPerNode", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_PER_USER, "QOSMaxEnergyPerUser", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_MINS_PER_JOB, "QOSMaxEnergyMinutesPerJob", LIM)
	REASON(WAIT_QOS_MIN_ENERGY, "QOSMinEnergy", LIM)
	REASON(WAIT_QOS_GRP_NODE_MIN, "QOSGrpNodeMinutes", LIM)
	REASON(WAIT_QOS_GRP_NODE_RUN_MIN, "QOSGrpNodeRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_NODE_MINS_PER_JOB, "QOSMaxNodeMinutesPerJob", LIM)
	REASON(WAIT_QOS_MIN_NODE, "QOSMinNode", LIM)
	REASON(WAIT_QOS_GRP_GRES, "QOSGrpGRES", LIM | GRP_GRES)
	REASON(WAIT_QOS_GRP_GRES_MIN, "QOSGrpGRESMinutes", LIM | GRP_GRES)
	REASON(WAIT_QOS_GRP_GRES_RUN_MIN, "QOSGrpGRESRunMinutes", LIM | GRP_GRES)
	REASON(WAIT_QOS_MAX_GRES_PER_JOB, "QOSMaxGRESPerJob", LIM)
	REASON(WAIT_QOS_MAX_GRES_PER_NODE, "QOSMaxGRESPerNode", LIM)
	REASON(WAIT_QOS_MAX_GRES_PER_USER, "QOSMaxGRESPerUser", LIM)
	REASON(WAIT_QOS_MAX_GRES_MINS_PER_JOB, "QOSMaxGRESMinutesPerJob", LIM)
	REASON(WAIT_QOS_MIN_GRES, "QOSMinGRES", LIM)
	REASON(WAIT_QOS_GRP_LIC, "QOSGrpLicense", LIM)
	REASON(WAIT_QOS_GRP_LIC_MIN, "QOSGrpLicenseMinutes", LIM)
	REASON(WAIT_QOS_GRP_LIC_RUN_MIN, "QOSGrpLicenseRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_LIC_PER_JOB, "QOSMaxLicensePerJob", LIM)
	REASON(WAIT_QOS_MAX_LIC_PER_USER, "QOSMaxLicensePerUser", LIM)
	REASON(WAIT_QOS_MAX_LIC_MINS_PER_JOB, "QOSMaxLicenseMinutesPerJob", LIM)
	REASON(WAIT_QOS_MIN_LIC, "QOSMinLicense", LIM)
	REASON(WAIT_QOS_GRP_BB, "QOSGrpBB", LIM)
	REASON(WAIT_QOS_GRP_BB_MIN, "QOSGrpBBMinutes", LIM)
	REASON(WAIT_QOS_GRP_BB_RUN_MIN, "QOSGrpBBRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_BB_PER_JOB, "QOSMaxBBPerJob", LIM)
	REASON(WAIT_QOS_MAX_BB_PER_NODE, "QOSMaxBBPerNode", LIM)
	REASON(WAIT_QOS_MAX_BB_PER_USER, "QOSMaxBBPerUser", LIM)
	REASON(WAIT_QOS_MAX_BB_MINS_PER_JOB, "AssocMaxBBMinutesPerJob", LIM)
	REASON(WAIT_QOS_MIN_BB, "QOSMinBB", LIM)
	/* Misc. */
	REASON(FAIL_DEADLINE, "DeadLine", 0)
	/* QOS MaxTRESPerAccount etc.: upstream strings have no "QOS" prefix. */
	REASON(WAIT_QOS_MAX_BB_PER_ACCT, "MaxBBPerAccount", LIM)
	REASON(WAIT_QOS_MAX_CPU_PER_ACCT, "MaxCpuPerAccount", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_PER_ACCT, "MaxEnergyPerAccount", LIM)
	REASON(WAIT_QOS_MAX_GRES_PER_ACCT, "MaxGRESPerAccount", LIM)
	REASON(WAIT_QOS_MAX_NODE_PER_ACCT, "MaxNodePerAccount", LIM)
	REASON(WAIT_QOS_MAX_LIC_PER_ACCT, "MaxLicensePerAccount", LIM)
	REASON(WAIT_QOS_MAX_MEM_PER_ACCT, "MaxMemoryPerAccount", LIM)
	REASON(WAIT_QOS_MAX_UNK_PER_ACCT, "MaxUnknownPerAccount", LIM)
	REASON(WAIT_QOS_MAX_JOB_PER_ACCT, "MaxJobsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_SUB_JOB_PER_ACCT, "MaxSubmitJobsPerAccount", LIM)
	/* Misc. */
	REASON(WAIT_PART_CONFIG, "PartitionConfig", 0)
	REASON(WAIT_ACCOUNT_POLICY, "AccountingPolicy", 0)
	REASON(WAIT_FED_JOB_LOCK, "FedJobLock", 0)
	REASON(FAIL_OOM, "OutOfMemory", 0)
	REASON(WAIT_PN_MEM_LIMIT, "MaxMemPerLimit", 0)
	/* Billing TRES limits. */
	REASON(WAIT_ASSOC_GRP_BILLING, "AssocGrpBilling", LIM)
	REASON(WAIT_ASSOC_GRP_BILLING_MIN, "AssocGrpBillingMinutes", LIM)
	REASON(WAIT_ASSOC_GRP_BILLING_RUN_MIN, "AssocGrpBillingRunMinutes", LIM)
	REASON(WAIT_ASSOC_MAX_BILLING_PER_JOB, "AssocMaxBillingPerJob", LIM)
	REASON(WAIT_ASSOC_MAX_BILLING_PER_NODE, "AssocMaxBillingPerNode", LIM)
	REASON(WAIT_ASSOC_MAX_BILLING_MINS_PER_JOB, "AssocMaxBillingMinutesPerJob", LIM)
	REASON(WAIT_QOS_GRP_BILLING, "QOSGrpBilling", LIM)
	REASON(WAIT_QOS_GRP_BILLING_MIN, "QOSGrpBillingMinutes", LIM)
	REASON(WAIT_QOS_GRP_BILLING_RUN_MIN, "QOSGrpBillingRunMinutes", LIM)
	REASON(WAIT_QOS_MAX_BILLING_PER_JOB, "QOSMaxBillingPerJob", LIM)
	REASON(WAIT_QOS_MAX_BILLING_PER_NODE, "QOSMaxBillingPerNode", LIM)
	REASON(WAIT_QOS_MAX_BILLING_PER_USER, "QOSMaxBillingPerUser", LIM)
	REASON(WAIT_QOS_MAX_BILLING_MINS_PER_JOB, "QOSMaxBillingMinutesPerJob", LIM)
	REASON(WAIT_QOS_MAX_BILLING_PER_ACCT, "MaxBillingPerAccount", LIM)
	REASON(WAIT_QOS_MIN_BILLING, "QOSMinBilling", LIM)
	/* Misc. */
	REASON(WAIT_RESV_DELETED, "ReservationDeleted", 0)
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0) /* new in 23.02 */
	REASON(FAIL_SIGNAL, "RaisedSignal", 0)
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 3) /* new in 23.02.3 */
	REASON(WAIT_RESV_INVALID, "ReservationInvalid", 0)
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0) /* new in 23.11 */
	REASON(FAIL_CONSTRAINTS, "Constraints", 0)
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0) /* new in 24.05 */
	/* QOS MaxTRESRunMinsPerAccount / PerUser, no "QOS" prefix either. */
	REASON(WAIT_QOS_MAX_BB_RUN_MINS_PER_ACCT, "MaxBBRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_BILLING_RUN_MINS_PER_ACCT, "MaxBillingRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_CPU_RUN_MINS_PER_ACCT, "MaxCpuRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_RUN_MINS_PER_ACCT, "MaxEnergyRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_GRES_RUN_MINS_PER_ACCT, "MaxGRESRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_NODE_RUN_MINS_PER_ACCT, "MaxNodeRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_LIC_RUN_MINS_PER_ACCT, "MaxLicenseRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_MEM_RUN_MINS_PER_ACCT, "MaxMemoryRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_UNK_RUN_MINS_PER_ACCT, "MaxUnknownRunMinsPerAccount", LIM)
	REASON(WAIT_QOS_MAX_BB_RUN_MINS_PER_USER, "MaxBBRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_BILLING_RUN_MINS_PER_USER, "MaxBillingRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_CPU_RUN_MINS_PER_USER, "MaxCpuRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_ENERGY_RUN_MINS_PER_USER, "MaxEnergyRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_GRES_RUN_MINS_PER_USER, "MaxGRESRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_NODE_RUN_MINS_PER_USER, "MaxNodeRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_LIC_RUN_MINS_PER_USER, "MaxLicenseRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_MEM_RUN_MINS_PER_USER, "MaxMemoryRunMinsPerUser", LIM)
	REASON(WAIT_QOS_MAX_UNK_RUN_MINS_PER_USER, "MaxUnknownRunMinsPerUser", LIM)
	REASON(WAIT_MAX_POWERED_NODES, "MaxPoweredUpNodes", 0)
	REASON(WAIT_MPI_PORTS_BUSY, "MpiPortsBusy", 0)
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0) /* new in 25.11 */
	REASON(WAIT_NVIDIA_IMEX_CHANNELS, "NvidiaImexChannels", 0)
#endif
	default:
		*flags = 0;
		return "Unknown";
	}
}

#undef REASON

const char *oc_slurm_reason_name(unsigned reason)
{
	unsigned flags;
	return reason_lookup(reason, &flags);
}

int oc_slurm_reason_is_limit(unsigned reason)
{
	unsigned flags;
	reason_lookup(reason, &flags);
	return (flags & LIM) != 0;
}

int oc_slurm_reason_is_grp_tres_gpu(unsigned reason)
{
	unsigned flags;
	reason_lookup(reason, &flags);
	return (flags & GRP_GRES) != 0;
}
