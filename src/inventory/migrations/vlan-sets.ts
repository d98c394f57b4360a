/**
 * Migration 490: two functions the derived spanning-tree inconsistency tables use to compare the
 * VLANs of the two ends of a link. `inventory.vlan_set` is the set of VLANs a switch port carries
 * (its access VLAN, or its trunk's allowed VLANs written as ranges such as "1,10-20", with any
 * part that is not a VLAN or a range of VLANs left out), sorted, or null where it is not known (no
 * mode, a trunk without its list); `inventory.vlan_ranges` writes a set back as ranges, null when
 * empty. Frozen text: an applied migration never changes.
 */
export const VLAN_SETS_SQL = `
CREATE OR REPLACE FUNCTION inventory.vlan_set(mode text, acc_vlan bigint, trunk_vlan text) RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN mode = 'access' THEN CASE WHEN acc_vlan BETWEEN 1 AND 4094 THEN ARRAY[acc_vlan::integer] ELSE NULL END
    WHEN mode = 'trunk' AND trunk_vlan IS NOT NULL THEN coalesce((
      SELECT array_agg(DISTINCT v ORDER BY v)
      FROM unnest(string_to_array(trunk_vlan, ',')) AS part,
        LATERAL generate_series(
          greatest(substring(part FROM '^\\s*([0-9]{1,4})')::integer, 1),
          least(coalesce(substring(part FROM '-\\s*([0-9]{1,4})\\s*$'), substring(part FROM '^\\s*([0-9]{1,4})'))::integer, 4094)
        ) AS v
      WHERE part ~ '^\\s*[0-9]{1,4}(\\s*-\\s*[0-9]{1,4})?\\s*$'
    ), '{}'::integer[])
    ELSE NULL
  END
$fn$;

CREATE OR REPLACE FUNCTION inventory.vlan_ranges(vlans integer[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT string_agg(CASE WHEN lo = hi THEN lo::text ELSE lo::text || '-' || hi::text END, ',' ORDER BY lo)
  FROM (
    SELECT min(v) AS lo, max(v) AS hi
    FROM (SELECT v, v - row_number() OVER (ORDER BY v) AS g FROM (SELECT DISTINCT unnest(vlans) AS v) d) x
    GROUP BY g
  ) y
$fn$;
`
