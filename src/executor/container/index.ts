/**
 * The container runtime of the local executor (docs/local-containers.md): with LOCAL_RUNTIME=auto|docker|podman
 * and a daemon answering, each job runs in its own container from a runner image (or its `container:` image),
 * steps are started in it by its step runner (a `docker exec` each where it cannot run), `services:` share its
 * network namespace; the hot path talks to the Engine API over the runtime's socket. Images are built from Debian packages
 * (debootstrap + docker import), never pulled with credentials.
 */
export type { ContainerNetwork, ContainerSettings, RuntimeChoice } from './settings.js';
export { DEFAULT_CONTAINER_SETTINGS, parseLabelImages } from './settings.js';
export type { ContainerRuntime } from './runtime.js';
export { cli, detectRuntime } from './runtime.js';
export type { BuildOptions, ImageRecipe, ListedImage } from './images.js';
export { buildImage, imageExists, imageTag, listImages, POSTGRES_RECIPE, pullImage, RECIPES, REDIS_RECIPE, RUNNER_RECIPE, runnerImageFor } from './images.js';
export type { ContainerSpec, ServiceSpec } from './job-spec.js';
export { parseContainerSpec, parseServices, servicePorts } from './job-spec.js';
export type { JobContainer, StartJobContainer } from './job-container.js';
export { CONTAINER_NODE, startJobContainer } from './job-container.js';
export type { ImageStep, JobEnvironment, LaunchedCommand } from './job-environment.js';
export { containerEnvironment, hostEnvironment, hostWhich } from './job-environment.js';
export { checkOptions, splitOptions } from './docker-options.js';
export { IMAGE_STAND_INS, repositoryName, resolveImage } from './image-resolution.js';
export type { ContainerRunPlan } from './run-plan.js';
export { planContainers, usableRuntime } from './run-plan.js';
