//! `[table]` and the capacity, auto scaling, split-for-heat and projection settings it shares
//! with `[[gsi]]`.

use super::{Names, Validator};
use crate::limits::{
    MAX_CAPACITY_UNITS, MAX_GET_RECORDS_PER_SHARD_PER_S, MAX_GSIS, MAX_ITEM_BYTES, MAX_LSIS, MAX_PROJECTED_ATTRIBUTES, MAX_STORAGE_GB,
    MAX_TARGET_PERCENT, MAX_VECTOR_DIMENSIONS, MAX_VECTOR_INDEXES, MAX_VECTOR_TOP_K, MIN_TARGET_PERCENT, MIN_VECTOR_WRITE_BYTES,
    ON_DEMAND_DEFAULT_WARM_READ, ON_DEMAND_DEFAULT_WARM_WRITE,
};
use crate::scenario::defaults;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{
    RawAutoscaling, RawBackups, RawCapacity, RawConsumerKind, RawGsi, RawGsiBackpressure, RawGsiCapacity, RawHeat, RawInitialBurst, RawLsi,
    RawPartitionLimitModel, RawProjection, RawScalingPolicy, RawScalingTarget, RawStreamView, RawStreams, RawTable, RawTableClass,
    RawVectorIndex, RawVectorSearches,
};
use crate::scenario::{
    AutoscalingSpec, BackupSpec, CapacitySpec, GsiBackpressure, GsiSpec, HeatSpec, IndexRef, InsightsMode, KeySpaceSpec, LsiSpec,
    Projection, RateShape, ScalingTargetSpec, StreamsSpec, TableClass, TableSpec, VectorIndexSpec, VectorSearches,
};
use crate::time::SimDuration;

impl Validator<'_, '_> {
    /// `gsi_backpressure` with its `gsi_buffer` or `gsi_absorb_bound`: a size only for its own
    /// model.
    fn gsi_backpressure(&mut self, tp: &KeyPath, raw: &RawTable) -> GsiBackpressure {
        let mode = raw.gsi_backpressure.unwrap_or(RawGsiBackpressure::Absorb);
        if raw.gsi_buffer.is_some() && mode != RawGsiBackpressure::Buffered {
            self.err(
                &tp.key("gsi_buffer"),
                "gsi_buffer sizes the buffer of gsi_backpressure = \"buffered\"; set that too, or remove gsi_buffer",
            );
        }
        if raw.gsi_absorb_bound.is_some() && mode != RawGsiBackpressure::Absorb {
            self.err(
                &tp.key("gsi_absorb_bound"),
                "gsi_absorb_bound bounds gsi_backpressure = \"absorb\" (the default); remove it, or the other gsi_backpressure",
            );
        }
        match mode {
            RawGsiBackpressure::Sync => GsiBackpressure::Sync,
            RawGsiBackpressure::Buffered => {
                let d = self.opt_duration(&tp.key("gsi_buffer"), raw.gsi_buffer.as_ref(), defaults::GSI_BUFFER);
                if d < SimDuration::from_secs(1) {
                    self.err(&tp.key("gsi_buffer"), "a GSI buffer holds at least 1s of the index's write capacity");
                }
                GsiBackpressure::Buffered { seconds: d }
            }
            RawGsiBackpressure::Absorb => {
                let bound = raw.gsi_absorb_bound.unwrap_or(defaults::GSI_ABSORB_BOUND);
                if bound == 0 || bound > MAX_CAPACITY_UNITS {
                    self.err(
                        &tp.key("gsi_absorb_bound"),
                        format!("write units an index partition may owe: 1 to {MAX_CAPACITY_UNITS}, not {bound}"),
                    );
                }
                GsiBackpressure::Absorb { bound_units: bound.clamp(1, MAX_CAPACITY_UNITS) }
            }
        }
    }

    /// `[[table.vector_index]]`: on an on-demand table only, at most five, 1 to 4,096
    /// dimensions, names of their own.
    fn vector_indexes(
        &mut self,
        tp: &KeyPath,
        raw: &[RawVectorIndex],
        capacity: &RawCapacity,
        names: &Names,
        duration: SimDuration,
    ) -> Vec<VectorIndexSpec> {
        if raw.len() > MAX_VECTOR_INDEXES {
            self.err(&tp.key("vector_index"), format!("{} vector indexes: a table has at most {MAX_VECTOR_INDEXES}", raw.len()));
        }
        if !raw.is_empty() && !matches!(capacity, RawCapacity::OnDemand { .. }) {
            self.err(&tp.key("vector_index"), "vector indexes are supported only on tables in on-demand capacity mode");
        }
        let mut out: Vec<VectorIndexSpec> = Vec::new();
        for (i, v) in raw.iter().enumerate() {
            let at = tp.key("vector_index").index(i);
            self.shown_name(&at.key("name"), &v.name);
            if v.name.is_empty() || names.indexes.contains_key(&v.name) || out.iter().any(|o| o.name == v.name) {
                self.err(&at.key("name"), format!("\"{}\": a vector index needs a name no other index of the table has", v.name));
            }
            if !(1..=MAX_VECTOR_DIMENSIONS).contains(&v.dimensions) {
                self.err(
                    &at.key("dimensions"),
                    format!("a vector index has 1 to {MAX_VECTOR_DIMENSIONS} dimensions, not {}", v.dimensions),
                );
            }
            let dimensions = v.dimensions.clamp(1, MAX_VECTOR_DIMENSIONS);
            let searches = v.searches.as_ref().map(|s| self.vector_searches(&at.key("searches"), s, dimensions, duration));
            let projection = match &v.projection {
                None => Projection::KeysOnly,
                Some(p) => self.projection(&at.key("projection"), Some(p)),
            };
            let coverage = v.coverage.unwrap_or(1.0);
            if !(coverage > 0.0 && coverage <= 1.0) {
                self.err(&at.key("coverage"), format!("the share of items with a vector is above 0 and at most 1, not {coverage}"));
            }
            out.push(VectorIndexSpec { name: v.name.clone(), dimensions, projection, coverage: coverage.clamp(0.0, 1.0), searches });
        }
        out
    }

    /// `searches = { rate, top_k, search_bytes }`: TopK 1 to 100, a rate (not a closed loop),
    /// at least 1 KB a search (the minimum metered).
    fn vector_searches(&mut self, at: &KeyPath, s: &RawVectorSearches, dimensions: u64, duration: SimDuration) -> VectorSearches {
        let top_k = s.top_k.unwrap_or(defaults::VECTOR_TOP_K);
        if !(1..=MAX_VECTOR_TOP_K).contains(&top_k) {
            self.err(&at.key("top_k"), format!("a search returns 1 to {MAX_VECTOR_TOP_K} results (TopK), not {top_k}"));
        }
        let top_k = top_k.clamp(1, MAX_VECTOR_TOP_K);
        let rate = self.rate_shape(&at.key("rate"), &s.rate, duration);
        if matches!(rate, RateShape::ClosedLoop(_)) {
            self.err(&at.key("rate"), "searches take a rate; a closed loop would wait on answers ddbsim does not model");
        }
        let bytes = match s.search_bytes {
            Some(b) if b < MIN_VECTOR_WRITE_BYTES => {
                self.err(&at.key("search_bytes"), format!("a search meters at least {MIN_VECTOR_WRITE_BYTES} bytes, not {b}"));
                MIN_VECTOR_WRITE_BYTES
            }
            Some(b) if b > MAX_ITEM_BYTES * MAX_VECTOR_TOP_K => {
                let most = MAX_ITEM_BYTES * MAX_VECTOR_TOP_K;
                self.err(
                    &at.key("search_bytes"),
                    format!("a search returns at most {MAX_VECTOR_TOP_K} items of 400 KB: at most {most} bytes, not {b}"),
                );
                most
            }
            Some(b) => b,
            None => VectorSearches::default_bytes(dimensions, top_k),
        };
        VectorSearches { rate, top_k, bytes, bytes_estimated: s.search_bytes.is_none() }
    }

    /// `[table]`.
    pub(super) fn table(&mut self, tp: &KeyPath, raw: RawTable, names: &Names, scenario_name: &str, duration: SimDuration) -> TableSpec {
        let partition_key = self.key_ref(names, &tp.key("partition_key"), &raw.partition_key).unwrap_or(0);
        let storage_gb = raw.storage_gb.unwrap_or(0.0);
        if !storage_gb.is_finite() || storage_gb < 0.0 {
            self.err(&tp.key("storage_gb"), format!("storage must be a finite number >= 0 GB, not {storage_gb}"));
        } else if storage_gb > MAX_STORAGE_GB {
            self.err(
                &tp.key("storage_gb"),
                format!("{storage_gb} GB is above ddbsim's ceiling of {MAX_STORAGE_GB:e} GB (a million partitions)"),
            );
        }
        let capacity = self.table_capacity(&tp.key("capacity"), &raw.capacity);
        // On an on-demand table, auto scaling applies from a switch to provisioned: checked
        // with the actions.
        let autoscaling = raw.autoscaling.as_ref().map(|a| self.autoscaling(&tp.key("autoscaling"), a));
        let doubling = self.opt_duration(&tp.key("on_demand_doubling"), raw.on_demand_doubling.as_ref(), defaults::ON_DEMAND_DOUBLING);
        if doubling < SimDuration::from_secs(60) {
            self.err(&tp.key("on_demand_doubling"), "the on-demand doubling time must be at least 1m");
        }
        let gsi_backpressure = self.gsi_backpressure(tp, &raw);
        TableSpec {
            name: {
                if let Some(n) = &raw.name {
                    self.shown_name(&tp.key("name"), n);
                }
                raw.name.unwrap_or_else(|| scenario_name.to_string())
            },
            partition_key,
            key_attributes: self.key_attributes(&tp.key("key_attributes"), raw.key_attributes.as_deref(), 2),
            table_class: if raw.table_class == Some(RawTableClass::StandardIa) { TableClass::StandardIa } else { TableClass::Standard },
            storage_bytes: (storage_gb.clamp(0.0, 1e15) * crate::limits::GB as f64) as u64,
            capacity,
            autoscaling,
            initial_burst_full: raw.initial_burst != Some(RawInitialBurst::Empty),
            linear_partition_limit: raw.partition_limit_model == Some(RawPartitionLimitModel::Linear),
            ec_read_fanout: match raw.ec_read_fanout {
                None => defaults::EC_READ_FANOUT,
                Some(f) if (1.0..=3.0).contains(&f) => f,
                Some(f) => {
                    self.err(
                        &tp.key("ec_read_fanout"),
                        format!("ec_read_fanout is between 1 (the leader only) and 3 (all three replicas), not {f}"),
                    );
                    defaults::EC_READ_FANOUT
                }
            },
            update_latency: self.opt_duration(&tp.key("update_latency"), raw.update_latency.as_ref(), defaults::UPDATE_LATENCY),
            switch_duration: self.opt_duration(&tp.key("switch_duration"), raw.switch_duration.as_ref(), defaults::SWITCH_DURATION),
            gsi_backpressure,
            partition_add_latency: self.opt_duration(
                &tp.key("partition_add_latency"),
                raw.partition_add_latency.as_ref(),
                defaults::PARTITION_ADD_LATENCY,
            ),
            prewarm_delay: self.opt_duration(&tp.key("prewarm_delay"), raw.prewarm_delay.as_ref(), defaults::PREWARM_DELAY),
            on_demand_doubling_minutes: (doubling.as_secs() as f64 / 60.0).max(1.0),
            split_for_heat: self.heat(&tp.key("split_for_heat"), raw.split_for_heat.as_ref()),
            backups: raw.backups.map(|b| self.backups(&tp.key("backups"), b, duration)).unwrap_or_default(),
            streams: raw.streams.as_ref().map(|s| self.streams(&tp.key("streams"), s)),
            ttl: raw.ttl.as_ref().map(|t| self.ttl(&tp.key("ttl"), t)),
            contributor_insights: raw.contributor_insights.map(InsightsMode::of),
            vector_indexes: self.vector_indexes(tp, &raw.vector_index, &raw.capacity, names, duration),
            mrsc_write_latency: raw.multi_region_strong.as_ref().map(|m| {
                let at = tp.key("multi_region_strong").key("write_latency");
                let d = self.opt_duration(&at, Some(&m.write_latency), SimDuration::from_micros(0));
                if d.as_micros() > 10_000_000 {
                    self.err(&at, format!("a write's cross-region acknowledgement of at most \"10s\", not {d}"));
                }
                d
            }),
        }
    }

    /// `[table.ttl]`: whole minutes (the deletes are spread minute by minute).
    fn ttl(&mut self, at: &KeyPath, raw: &crate::scenario::raw::RawTtl) -> crate::scenario::TtlSpec {
        let share = raw.share.unwrap_or(1.0);
        if !(share.is_finite() && (0.0..=1.0).contains(&share)) {
            self.err(&at.key("share"), format!("a share of the bytes written between 0 and 1, not {share}"));
        }
        let after = self.opt_duration(&at.key("after"), Some(&raw.after), defaults::TTL_WITHIN);
        let within = self.opt_duration(&at.key("within"), raw.within.as_ref(), defaults::TTL_WITHIN);
        for (key, d) in [("after", after), ("within", within)] {
            if d.as_secs() < 60 || !d.as_secs().is_multiple_of(60) {
                self.err(
                    &at.key(key),
                    format!("TTL deletes are spread minute by minute: a whole number of minutes, at least \"1m\", not {d}"),
                );
            }
        }
        crate::scenario::TtlSpec { share: share.clamp(0.0, 1.0), after, within }
    }

    /// `[table.streams]`.
    fn streams(&mut self, sp: &KeyPath, raw: &RawStreams) -> StreamsSpec {
        let image_factor = match raw.view.unwrap_or(RawStreamView::NewAndOldImages) {
            RawStreamView::KeysOnly => 0.0,
            RawStreamView::NewImage | RawStreamView::OldImage => 1.0,
            RawStreamView::NewAndOldImages => 2.0,
        };
        let mut pollers_ms = Vec::new();
        let mut free_consumers = 0;
        for (i, c) in raw.consumers.iter().enumerate() {
            let at = sp.key("consumers").index(i);
            match c.kind {
                RawConsumerKind::Poller => {
                    let d = self.opt_duration(&at.key("poll_interval"), c.poll_interval.as_ref(), defaults::STREAMS_POLL_INTERVAL);
                    let min_ms = 1_000 / MAX_GET_RECORDS_PER_SHARD_PER_S;
                    if d < SimDuration::from_millis(min_ms) {
                        self.err(
                            &at.key("poll_interval"),
                            "a shard serves at most 5 GetRecords calls a second: poll_interval is at least 200ms",
                        );
                    }
                    pollers_ms.push((d.as_micros() / 1_000).max(min_ms));
                }
                kind => {
                    if c.poll_interval.is_some() {
                        self.err(
                            &at.key("poll_interval"),
                            format!(
                                "poll_interval sets a poller's calls; a {} consumer's reads are free",
                                if kind == RawConsumerKind::Lambda { "lambda" } else { "global_tables" }
                            ),
                        );
                    }
                    free_consumers += 1;
                }
            }
        }
        StreamsSpec { image_factor, pollers_ms, free_consumers }
    }

    /// `[table.backups]`.
    fn backups(&mut self, bp: &KeyPath, raw: RawBackups, duration: SimDuration) -> BackupSpec {
        let schedule = raw.on_demand.map(|s| {
            let every = self.duration(&bp.key("on_demand").key("every"), &s.every).unwrap_or(SimDuration::from_secs(86_400));
            if every < SimDuration::from_secs(60) {
                self.err(&bp.key("on_demand").key("every"), "backups are at least 1m apart");
            }
            if s.retain == 0 {
                self.err(&bp.key("on_demand").key("retain"), "keep at least 1 backup (retain = 1)");
            }
            (every.as_secs().max(60), s.retain.max(1))
        });
        let mut times = |key: &str, texts: &[String]| -> Vec<u64> {
            let mut out = Vec::new();
            for (i, t) in texts.iter().enumerate() {
                let at = bp.key(key).index(i);
                if let Some(d) = self.duration(&at, t) {
                    if d > duration {
                        self.err(&at, format!("{t} is after the end of the run ({duration})"));
                    } else {
                        out.push(d.as_secs());
                    }
                }
            }
            out.sort_unstable();
            out
        };
        let backup_at = times("backup_at", &raw.backup_at);
        let export_at = times("export_at", &raw.export_at);
        let restore_at = times("restore_at", &raw.restore_at);
        let recovery_days = match raw.recovery_days {
            Some(d) if !(1..=35).contains(&d) => {
                self.err(&bp.key("recovery_days"), format!("a recovery period is 1 to 35 days, not {d}"));
                35
            }
            Some(_) if !raw.pitr => {
                self.err(&bp.key("recovery_days"), "a recovery period is point-in-time recovery's: set pitr = true");
                35
            }
            Some(d) => d,
            None => crate::scenario::defaults::PITR_RECOVERY_DAYS,
        };
        BackupSpec { pitr: raw.pitr, recovery_days, schedule, backup_at, export_at, restore_at }
    }

    /// `[[gsi]]` and `[[lsi]]`; records their names.
    pub(super) fn indexes(
        &mut self,
        raw_gsi: &[RawGsi],
        raw_lsi: &[RawLsi],
        table: &CapacitySpec,
        names: &mut Names,
        key_spaces: &mut Vec<KeySpaceSpec>,
    ) -> (Vec<GsiSpec>, Vec<LsiSpec>) {
        let root = KeyPath::root();
        if raw_gsi.len() > MAX_GSIS {
            self.err(&root.key("gsi"), format!("{} GSIs: a table may have at most {MAX_GSIS}", raw_gsi.len()));
        }
        if raw_lsi.len() > MAX_LSIS {
            self.err(&root.key("lsi"), format!("{} LSIs: a table may have at most {MAX_LSIS}", raw_lsi.len()));
        }
        let mut gsis = Vec::new();
        for (i, g) in raw_gsi.iter().enumerate() {
            let at = root.key("gsi").index(i);
            self.shown_name(&at.key("name"), &g.name);
            if names.indexes.insert(g.name.clone(), IndexRef::Gsi(i)).is_some() {
                self.err(&at.key("name"), format!("a second index named \"{}\"", g.name));
            }
            let correlated = g.correlated.unwrap_or(false);
            let pk = self.index_key(names, &at.key("partition_key"), &g.partition_key, correlated, key_spaces).unwrap_or(0);
            let coverage = self.coverage(&at.key("coverage"), g.coverage.as_ref(), &g.partition_key, defaults::COVERAGE);
            let storage_bytes = g.storage_gb.map(|gb| {
                if !gb.is_finite() || !(0.0..=MAX_STORAGE_GB).contains(&gb) {
                    self.err(&at.key("storage_gb"), format!("storage must be a finite number from 0 to {MAX_STORAGE_GB:e} GB, not {gb}"));
                }
                (gb.clamp(0.0, MAX_STORAGE_GB) * crate::limits::GB as f64) as u64
            });
            let capacity = self.gsi_capacity(&at.key("capacity"), g.capacity.as_ref(), table);
            let autoscaling = g.autoscaling.as_ref().map(|a| self.autoscaling(&at.key("autoscaling"), a));
            let (projection, projected) = self.index_projection(&at.key("projection"), g.projection.as_ref());
            let key_attributes = self.key_attributes(&at.key("key_attributes"), g.key_attributes.as_deref(), 8);
            let pp = at.key("propagation");
            let prop = g.propagation.as_ref();
            let median = self.opt_duration(&pp.key("median"), prop.and_then(|p| p.median.as_ref()), defaults::PROPAGATION_MEDIAN);
            let p99 = self.opt_duration(&pp.key("p99"), prop.and_then(|p| p.p99.as_ref()), defaults::PROPAGATION_P99);
            if median == SimDuration::ZERO || p99 < median {
                self.err(&pp, format!("propagation needs 0 < median <= p99, not median {median} and p99 {p99}"));
            }
            gsis.push(GsiSpec {
                name: g.name.clone(),
                partition_key: pk,
                correlated,
                projection,
                key_attributes,
                projected,
                coverage,
                storage_bytes,
                capacity,
                autoscaling,
                added_during_run: false,
                no_history: {
                    let has = |d| g.no_history.as_ref().is_some_and(|v| v.contains(&d));
                    [has(crate::scenario::raw::RawDimension::Read), has(crate::scenario::raw::RawDimension::Write)]
                },
                propagation_median_us: median.as_micros().max(1),
                propagation_p99_us: p99.as_micros().max(median.as_micros().max(1)),
                contributor_insights: g.contributor_insights.map(InsightsMode::of),
            });
        }
        let mut lsis = Vec::new();
        for (i, l) in raw_lsi.iter().enumerate() {
            let at = root.key("lsi").index(i);
            self.shown_name(&at.key("name"), &l.name);
            if names.indexes.insert(l.name.clone(), IndexRef::Lsi(i)).is_some() {
                self.err(&at.key("name"), format!("a second index named \"{}\"", l.name));
            }
            let (projection, projected) = self.index_projection(&at.key("projection"), l.projection.as_ref());
            let key_attributes = self.key_attributes(&at.key("key_attributes"), l.key_attributes.as_deref(), 1);
            lsis.push(LsiSpec { name: l.name.clone(), projection, key_attributes, projected });
        }
        (gsis, lsis)
    }

    pub(super) fn table_capacity(&mut self, at: &KeyPath, c: &RawCapacity) -> CapacitySpec {
        match c {
            RawCapacity::Provisioned { read, write } => {
                let read = self.units(&at.key("read"), *read, "provisioned read capacity");
                let write = self.units(&at.key("write"), *write, "provisioned write capacity");
                CapacitySpec::Provisioned { read, write }
            }
            RawCapacity::OnDemand { warm_read, warm_write, max_read, max_write, table_quota } => {
                let table_quota =
                    [table_quota.map_or(defaults::TABLE_QUOTA, |q| self.units(&at.key("table_quota"), q, "the table quota")); 2];
                let warm_read = warm_read.map_or(defaults::WARM_READ, |w| self.units(&at.key("warm_read"), w, "warm read throughput"));
                let warm_write = warm_write.map_or(defaults::WARM_WRITE, |w| self.units(&at.key("warm_write"), w, "warm write throughput"));
                if warm_read < ON_DEMAND_DEFAULT_WARM_READ {
                    self.err(
                        &at.key("warm_read"),
                        format!("warm throughput never goes below the new-table default of {ON_DEMAND_DEFAULT_WARM_READ} RRU/s"),
                    );
                }
                if warm_write < ON_DEMAND_DEFAULT_WARM_WRITE {
                    self.err(
                        &at.key("warm_write"),
                        format!("warm throughput never goes below the new-table default of {ON_DEMAND_DEFAULT_WARM_WRITE} WRU/s"),
                    );
                }
                let max_read = max_read.map(|m| self.units(&at.key("max_read"), m, "max_read"));
                let max_write = max_write.map(|m| self.units(&at.key("max_write"), m, "max_write"));
                CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota }
            }
        }
    }

    pub(super) fn gsi_capacity(&mut self, at: &KeyPath, c: Option<&RawGsiCapacity>, table: &CapacitySpec) -> CapacitySpec {
        match table {
            CapacitySpec::Provisioned { .. } => {
                let Some(c) = c else {
                    self.err(at, "a GSI of a provisioned table needs `capacity = { read = .., write = .. }`");
                    return CapacitySpec::Provisioned { read: 1, write: 1 };
                };
                for (k, v) in
                    [("warm_read", c.warm_read), ("warm_write", c.warm_write), ("max_read", c.max_read), ("max_write", c.max_write)]
                {
                    if v.is_some() {
                        self.err(&at.key(k), format!("`{k}` is an on-demand setting; this table is provisioned"));
                    }
                }
                let read = match c.read {
                    Some(r) => self.units(&at.key("read"), r, "GSI read capacity"),
                    None => {
                        self.err(at, "missing `read` capacity units");
                        1
                    }
                };
                let write = match c.write {
                    Some(w) => self.units(&at.key("write"), w, "GSI write capacity"),
                    None => {
                        self.err(at, "missing `write` capacity units");
                        1
                    }
                };
                CapacitySpec::Provisioned { read, write }
            }
            CapacitySpec::OnDemand { table_quota, .. } => {
                let mut warm_read = ON_DEMAND_DEFAULT_WARM_READ;
                let mut warm_write = ON_DEMAND_DEFAULT_WARM_WRITE;
                let (mut max_read, mut max_write) = (None, None);
                if let Some(c) = c {
                    for (k, v) in [("read", c.read), ("write", c.write)] {
                        if v.is_some() {
                            self.err(
                                &at.key(k),
                                format!("`{k}` is a provisioned setting; this table is on-demand (use warm_{k} or max_{k})"),
                            );
                        }
                    }
                    if let Some(w) = c.warm_read {
                        warm_read = self.units(&at.key("warm_read"), w, "warm read throughput").max(ON_DEMAND_DEFAULT_WARM_READ);
                    }
                    if let Some(w) = c.warm_write {
                        warm_write = self.units(&at.key("warm_write"), w, "warm write throughput").max(ON_DEMAND_DEFAULT_WARM_WRITE);
                    }
                    max_read = c.max_read.map(|m| self.units(&at.key("max_read"), m, "max_read"));
                    max_write = c.max_write.map(|m| self.units(&at.key("max_write"), m, "max_write"));
                }
                CapacitySpec::OnDemand { warm_read, warm_write, max_read, max_write, table_quota: *table_quota }
            }
        }
    }

    pub(super) fn autoscaling(&mut self, at: &KeyPath, a: &RawAutoscaling) -> AutoscalingSpec {
        if a.read.is_none() && a.write.is_none() {
            self.err(at, "auto scaling needs a `read` or a `write` target");
        }
        let target = |v: &mut Self, name: &str, t: Option<&RawScalingTarget>| {
            t.map(|t| {
                let tp = at.key(name);
                if !(MIN_TARGET_PERCENT..=MAX_TARGET_PERCENT).contains(&t.target) {
                    v.err(&tp.key("target"), format!("target utilization must be between 20 and 90 percent, not {}", t.target));
                }
                let min = v.units(&tp.key("min"), t.min, "minimum capacity");
                let max = v.units(&tp.key("max"), t.max, "maximum capacity");
                if min > max {
                    v.err(&tp.key("min"), format!("min ({min}) is above max ({max})"));
                }
                ScalingTargetSpec {
                    min,
                    max,
                    target: t.target / 100.0,
                    scale_in_cooldown: v.opt_duration(&tp.key("scale_in_cooldown"), t.scale_in_cooldown.as_ref(), defaults::COOLDOWN),
                    scale_out_cooldown: v.opt_duration(&tp.key("scale_out_cooldown"), t.scale_out_cooldown.as_ref(), defaults::COOLDOWN),
                }
            })
        };
        let read = target(self, "read", a.read.as_ref());
        let write = target(self, "write", a.write.as_ref());
        AutoscalingSpec {
            instant: a.policy == Some(RawScalingPolicy::Instant),
            read,
            write,
            alarm_delay: self.opt_duration(&at.key("alarm_delay"), a.alarm_delay.as_ref(), defaults::ALARM_DELAY),
        }
    }

    pub(super) fn heat(&mut self, at: &KeyPath, h: Option<&RawHeat>) -> Option<HeatSpec> {
        match h {
            None | Some(RawHeat::Switch(true)) => Some(HeatSpec::default()),
            Some(RawHeat::Switch(false)) => None,
            Some(RawHeat::Settings(s)) => {
                let d = HeatSpec::default();
                let threshold = s.threshold.unwrap_or(d.threshold);
                if !(threshold > 0.0 && threshold <= 1.0) {
                    self.err(
                        &at.key("threshold"),
                        format!("the heat threshold is a share of the partition cap: above 0 and at most 1, not {threshold}"),
                    );
                }
                let window = self.opt_duration(&at.key("window"), s.window.as_ref(), defaults::HEAT_WINDOW);
                if window.as_secs() < 60 || !window.as_secs().is_multiple_of(60) {
                    self.err(&at.key("window"), "the heat window is whole minutes, at least 1m");
                }
                let delay = self.opt_duration(&at.key("delay"), s.delay.as_ref(), defaults::HEAT_DELAY);
                Some(HeatSpec { threshold, window_minutes: (window.as_secs() / 60).max(1), delay_s: delay.as_secs() })
            }
        }
    }

    pub(super) fn projection(&mut self, at: &KeyPath, p: Option<&RawProjection>) -> Projection {
        match p {
            None | Some(RawProjection::All) => Projection::All,
            Some(RawProjection::KeysOnly) => Projection::KeysOnly,
            Some(RawProjection::IncludeBytes(b)) => {
                if *b > MAX_ITEM_BYTES {
                    self.err(&at.key("include_bytes"), format!("projected bytes cannot exceed the 400 KB item limit, not {b}"));
                }
                Projection::IncludeBytes(*b)
            }
            Some(RawProjection::Include(_)) => {
                self.err(
                    &at.key("include"),
                    "only a secondary index's entries are sized from its writers' items; give this index { include_bytes = N }",
                );
                Projection::IncludeBytes(0)
            }
        }
    }

    /// A secondary index's projection, and the attributes an `INCLUDE` names (sized from the
    /// items written).
    fn index_projection(&mut self, at: &KeyPath, p: Option<&RawProjection>) -> (Projection, Vec<String>) {
        match p {
            Some(RawProjection::Include(names)) => {
                self.attribute_names(&at.key("include"), names, MAX_PROJECTED_ATTRIBUTES);
                (Projection::IncludeBytes(0), names.clone())
            }
            p => (self.projection(at, p), Vec::new()),
        }
    }

    /// Key attribute names: 1 to `most` of them, each named once.
    fn key_attributes(&mut self, at: &KeyPath, names: Option<&[String]>, most: usize) -> Vec<String> {
        let Some(names) = names else { return Vec::new() };
        if names.is_empty() {
            self.err(at, "name at least one key attribute, or leave key_attributes out");
        }
        self.attribute_names(at, names, most);
        names.to_vec()
    }

    /// Attribute names: at most `most`, none empty, none twice.
    fn attribute_names(&mut self, at: &KeyPath, names: &[String], most: usize) {
        if names.len() > most {
            self.err(at, format!("{} attribute names: at most {most} here", names.len()));
        }
        for (i, n) in names.iter().enumerate() {
            if n.is_empty() || names[..i].contains(n) {
                self.err(&at.index(i), format!("{n:?}: an attribute name is not empty and named once"));
            }
        }
    }
}
