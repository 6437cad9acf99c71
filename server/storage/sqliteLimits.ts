/**
 * SQLite plans a query with the value bound to a plain `LIMIT ?` or `OFFSET ?`, and so
 * prepares the statement again each time that value is bound: every run of a kept statement
 * (database.ts) with a limit, such as the wallet lookup of every createOrder or a page of
 * keys or deliveries, would parse and plan it afresh. Sent as `? + 0`, the value is an
 * expression computed when the statement runs: the same rows, the same parameters, one plan.
 * It serves the floor "≥ 2× Prism mock on every throughput scenario" for quote + order,
 * whose createOrder looks its wallet up with a limit (bench/README.md, the audit).
 */
import { BinaryOperationNode, LimitNode, OffsetNode, OperationNodeTransformer, OperatorNode, SelectQueryNode, ValueNode, type KyselyPlugin, type OperationNode, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';

class ComputedLimits extends OperationNodeTransformer {
  protected override transformLimit(node: LimitNode): LimitNode {
    return LimitNode.create(computed(node.limit));
  }

  protected override transformOffset(node: OffsetNode): OffsetNode {
    return OffsetNode.create(computed(node.offset));
  }
}

/** A bound value as `value + 0`; a literal or an expression is left as it is. */
function computed(node: OperationNode): OperationNode {
  if (!ValueNode.is(node) || node.immediate) return node;
  return BinaryOperationNode.create(node, OperatorNode.create('+'), ValueNode.createImmediate(0));
}

export class SqliteLimitsPlugin implements KyselyPlugin {
  readonly #transformer = new ComputedLimits();

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    // Only a select with a limit or an offset is rebuilt; every other query passes as it is.
    return SelectQueryNode.is(node) && (node.limit || node.offset) ? this.#transformer.transformNode(node) : node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
