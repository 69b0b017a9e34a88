"""What outlives a table: SQL, the live stores, the cluster, persistence and outages.

SQL holds players, finished games and ratings; live tables are kept in SQLite or Redis, whose
script calls are batched, whose leases share tables between hosts, and whose outage is watched.
"""
