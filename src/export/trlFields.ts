/**
 * The keyword names TRL's GRPOConfig accepts: its own fields and those it inherits from
 * transformers' TrainingArguments. grpoConfig.test.ts checks that every keyword the export and the
 * runs panel's snippet pass to GRPOConfig is one of them (an unknown keyword is a TypeError there).
 *
 * Read from the dataclass fields of
 *   huggingface/trl           trl/trainer/grpo_config.py              at commit f2cd577 (version 1.10.0.dev0, July 2026)
 *   huggingface/transformers  src/transformers/training_args.py       at commit 00349ae
 * as listed in shared/trl-formats.md; checked against TRL's API reference for
 * GRPOWithReplayBufferConfig (a GRPOConfig subclass: its signature lists the same fields,
 * entropy_coef … entropy_target included) and against grpo_config.py at huggingface/trl 006d32c, an
 * earlier 2026 revision that has every field used here except the entropy_coef family. An older
 * TRL lacks some fields: train_grpo.py drops, and names, any keyword its GRPOConfig does not have.
 */

export const TRL_VERSION = '1.10.0.dev0 (huggingface/trl f2cd577)';
export const TRANSFORMERS_VERSION = 'huggingface/transformers 00349ae';

/** GRPOConfig's own fields (79). */
export const GRPO_CONFIG_FIELDS: readonly string[] = [
  'learning_rate', 'model_init_kwargs', 'trust_remote_code', 'router_aux_loss_coef', 'disable_dropout',
  'cast_lm_head_to_fp32', 'remove_unused_columns', 'num_generations', 'num_generations_eval',
  'max_completion_length', 'ds3_gather_for_generation', 'shuffle_dataset', 'pad_to_multiple_of',
  'generation_batch_size', 'steps_per_generation', 'temperature', 'top_p', 'top_k', 'min_p', 'generation_kwargs',
  'chat_template_kwargs', 'repetition_penalty', 'cache_implementation', 'use_vllm', 'vllm_mode', 'vllm_model_impl',
  'vllm_enable_sleep_mode', 'vllm_structured_outputs_regex', 'vllm_server_base_url', 'vllm_server_host',
  'vllm_server_port', 'vllm_server_timeout', 'vllm_group_port', 'vllm_gpu_memory_utilization',
  'vllm_max_model_length', 'vllm_tensor_parallel_size', 'beta', 'num_iterations', 'epsilon', 'delta', 'epsilon_high',
  'sapo_temperature_neg', 'sapo_temperature_pos', 'vespo_k_pos', 'vespo_lambda_pos', 'vespo_k_neg',
  'vespo_lambda_neg', 'importance_sampling_level', 'reward_weights', 'multi_objective_aggregation', 'scale_rewards',
  'loss_type', 'mask_truncated_completions', 'sync_ref_model', 'ref_model_mixup_alpha', 'ref_model_sync_steps',
  'top_entropy_quantile', 'entropy_coef', 'use_adaptive_entropy', 'entropy_coef_min', 'entropy_coef_max',
  'entropy_coef_delta', 'entropy_target', 'max_tool_calling_iterations', 'vllm_importance_sampling_correction',
  'vllm_importance_sampling_mode', 'vllm_importance_sampling_clip_max', 'vllm_importance_sampling_clip_min',
  'off_policy_mask_threshold', 'use_bias_correction_kl', 'log_completions', 'log_multimodal',
  'num_completions_to_print', 'log_unique_prompts', 'log_completions_hub_repo',
  'use_transformers_continuous_batching', 'transformers_continuous_batching_config', 'use_transformers_paged',
  'vllm_importance_sampling_cap',
];

/** TrainingArguments' fields (109), inherited by GRPOConfig. */
export const TRAINING_ARGUMENTS_FIELDS: readonly string[] = [
  'accelerator_config', 'adam_beta1', 'adam_beta2', 'adam_epsilon', 'auto_find_batch_size',
  'average_tokens_across_devices', 'batch_eval_metrics', 'bf16', 'bf16_full_eval', 'data_seed',
  'dataloader_drop_last', 'dataloader_num_workers', 'dataloader_persistent_workers', 'dataloader_pin_memory',
  'dataloader_prefetch_factor', 'ddp_backend', 'ddp_broadcast_buffers', 'ddp_bucket_cap_mb',
  'ddp_find_unused_parameters', 'ddp_timeout', 'debug', 'deepspeed', 'disable_tqdm', 'do_eval', 'do_predict',
  'do_train', 'enable_jit_checkpoint', 'eval_accumulation_steps', 'eval_delay', 'eval_do_concat_batches',
  'eval_on_start', 'eval_steps', 'eval_strategy', 'eval_use_gather_object', 'fp16', 'fp16_full_eval', 'fsdp',
  'fsdp_config', 'full_determinism', 'gradient_accumulation_steps', 'gradient_checkpointing',
  'gradient_checkpointing_kwargs', 'greater_is_better', 'hub_always_push', 'hub_model_id', 'hub_private_repo',
  'hub_revision', 'hub_strategy', 'hub_token', 'ignore_data_skip', 'include_for_metrics',
  'include_num_input_tokens_seen', 'label_names', 'label_smoothing_factor', 'learning_rate', 'length_column_name',
  'liger_kernel_config', 'load_best_model_at_end', 'local_rank', 'log_level', 'log_level_replica',
  'log_on_each_node', 'logging_dir', 'logging_first_step', 'logging_nan_inf_filter', 'logging_steps',
  'logging_strategy', 'lr_scheduler_kwargs', 'lr_scheduler_type', 'max_grad_norm', 'max_steps',
  'metric_for_best_model', 'neftune_noise_alpha', 'num_train_epochs', 'optim', 'optim_args', 'optim_target_modules',
  'output_dir', 'parallelism_config', 'per_device_eval_batch_size', 'per_device_train_batch_size',
  'prediction_loss_only', 'project', 'push_to_hub', 'remove_unused_columns', 'report_to',
  'restore_callback_states_from_checkpoint', 'resume_from_checkpoint', 'run_name', 'save_on_each_node',
  'save_only_model', 'save_steps', 'save_strategy', 'save_total_limit', 'seed', 'skip_memory_metrics', 'tf32',
  'torch_compile', 'torch_compile_backend', 'torch_compile_mode', 'torch_empty_cache_steps', 'trackio_space_id',
  'train_sampling_strategy', 'use_cache', 'use_cpu', 'use_liger_kernel', 'warmup_ratio', 'warmup_steps',
  'weight_decay',
];

const ALL = new Set([...GRPO_CONFIG_FIELDS, ...TRAINING_ARGUMENTS_FIELDS]);

/** True when GRPOConfig(key=…) is accepted by the versions above. */
export function isGrpoConfigField(key: string): boolean {
  return ALL.has(key);
}
