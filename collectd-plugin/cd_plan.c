/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the host mode sends for each port: built once per device, walked every read. */
#include "cd_plan.h"

#include "cd_submit.h"
#include "cd_values.h"

static void add_item(struct cd_items *items, const struct cd_slot *slot,
		     const struct rk_counter *first, const struct rk_counter *second)
{
	struct cd_item *item = &items->items[items->count++];

	memset(item, 0, sizeof(*item));
	item->type = slot->type;
	item->type_instance = slot->type_instance;
	item->gauge = strcmp(slot->type, "gauge") == 0;
	item->counter[0] = first;
	item->counter[1] = second;
	item->n = second ? 2 : 1;
}

/* The rx half of a pair brings in the tx half; a half without its partner is not sent. */
static void add_pair(struct cd_items *items, const struct rk_counter_set *set,
		     const struct rk_counter *counter, const struct cd_slot *slot)
{
	const struct rk_counter *partner = rk_counter_set_find(set, slot->partner);

	if (!partner) {
		cd_log(LOG_WARNING, "%s has no partner %s: %s not sent", counter->attr.path,
		       slot->partner, slot->type);
		return;
	}
	if (slot->ds == 0)
		add_item(items, slot, counter, partner);
}

/* A driver counter named like a PMA counter of the same port would share its identifier. */
static bool shadowed(const struct rk_counter_set *pma, const struct rk_counter *counter)
{
	if (!pma || !rk_counter_set_find(pma, counter->name))
		return false;
	cd_log(LOG_INFO, "%s not sent: the port's counters/%s has the same name",
	       counter->attr.path, counter->name);
	return true;
}

/* Add the counters of set; hw: a hw_counters set, pma: its port's counters/ (or NULL). */
static void add_counters(const struct cd_config *config, const struct rk_counter_set *set, bool hw,
			 const struct rk_counter_set *pma, struct cd_items *items)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *counter = &set->items[i];
		struct cd_slot slot;

		if (hw && (!cd_config_wants_hw(config, counter->name) || shadowed(pma, counter)))
			continue;
		cd_slot_for(counter->metric, counter->name, &slot);
		if (slot.partner)
			add_pair(items, set, counter, &slot);
		else
			add_item(items, &slot, counter, NULL);
	}
}

static int build_port(const struct cd_config *config, const struct rk_device *dev,
		      const struct rk_port *port, struct cd_port_plan *plan)
{
	plan->selected = cd_ports_selected(&config->ports, dev->name, port->num);
	snprintf(plan->instance, sizeof(plan->instance), "%s-%u", dev->name, port->num);
	snprintf(plan->name, sizeof(plan->name), "%s:%u", dev->name, port->num);
	if (!plan->selected)
		return 0;
	plan->items.items =
	    calloc(port->counters.count + port->hw_counters.count + 1, sizeof(struct cd_item));
	if (!plan->items.items)
		return -ENOMEM;
	add_counters(config, &port->counters, false, NULL, &plan->items);
	add_counters(config, &port->hw_counters, true, &port->counters, &plan->items);
	return 0;
}

static bool any_port_selected(const struct cd_dev_plan *plan)
{
	for (unsigned i = 0; i < plan->nports; i++)
		if (plan->ports[i].selected)
			return true;
	return false;
}

int cd_plan_build(const struct cd_config *config, struct rk_device *dev, struct cd_dev_plan *plan)
{
	int err = 0;

	memset(plan, 0, sizeof(*plan));
	plan->ports = calloc(dev->nports + 1, sizeof(*plan->ports));
	if (!plan->ports)
		return -ENOMEM;
	plan->nports = dev->nports;
	for (unsigned i = 0; i < dev->nports && !err; i++)
		err = build_port(config, dev, &dev->ports[i], &plan->ports[i]);
	if (!err && any_port_selected(plan)) {
		plan->hw.items = calloc(dev->hw_counters.count + 1, sizeof(struct cd_item));
		if (plan->hw.items)
			add_counters(config, &dev->hw_counters, true, NULL, &plan->hw);
		else
			err = -ENOMEM;
	}
	if (err)
		cd_plan_free(plan);
	else
		plan->built = true;
	return err;
}

const struct cd_item *cd_plan_item_of(const struct cd_items *items,
				      const struct rk_counter *counter)
{
	for (size_t i = 0; i < items->count; i++)
		for (unsigned k = 0; k < items->items[i].n; k++)
			if (items->items[i].counter[k] == counter)
				return &items->items[i];
	return NULL;
}

void cd_plan_free(struct cd_dev_plan *plan)
{
	for (unsigned i = 0; i < plan->nports; i++)
		free(plan->ports[i].items.items);
	free(plan->ports);
	free(plan->hw.items);
	plan->ports = NULL;
	plan->nports = 0;
	plan->hw = (struct cd_items){0};
	plan->built = false;
}
